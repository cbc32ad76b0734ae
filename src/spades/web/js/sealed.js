// What the "Shuffle sealed" window says of a hand whose shuffle is sealed (docs/shuffle.md):
// loaded when the window is first opened, so the page opens lighter.

/** What the "Shuffle sealed" window says of hand ``number`` sealed by ``commitment``. */
export function sealedBody(number, commitment) {
  const p = (text) => {
    const node = document.createElement("p");
    node.textContent = text;
    return node;
  };
  const code = document.createElement("code");
  code.className = "commitment";
  code.textContent = commitment;
  const seal = p("");
  seal.append(code);
  return [
    p(`Hand ${number} was shuffled before the deal and sealed: the server showed this page ` +
      "its commitment to the hand's seed:"),
    seal,
    p("When the hand is over the server reveals the seed; this page then checks that the " +
      "seed gives this commitment and the cards you saw, and says so in the hand's summary. " +
      "Once sealed, the seed cannot be changed, not even by the server."),
  ];
}
