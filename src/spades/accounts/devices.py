"""A device's name for the list of signed-in devices, from its User-Agent: "Firefox on
Windows", "Safari on iPhone". Only a label for a person; nothing depends on it."""

from __future__ import annotations

#: (a word in the User-Agent, the name shown), the more specific first.
BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("SamsungBrowser", "Samsung Internet"),
            ("Firefox/", "Firefox"), ("FxiOS", "Firefox"), ("CriOS", "Chrome"),
            ("Chromium/", "Chromium"), ("Chrome/", "Chrome"), ("Safari/", "Safari"),
            ("curl/", "curl"), ("python", "a script"))
SYSTEMS = (("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"),
           ("Windows", "Windows"), ("Mac OS X", "a Mac"), ("Macintosh", "a Mac"),
           ("CrOS", "ChromeOS"), ("Linux", "Linux"))
MAX_LABEL = 128


def device_label(user_agent: str | None) -> str:
    agent = user_agent or ""
    browser = next((name for word, name in BROWSERS if word in agent), "a browser")
    system = next((name for word, name in SYSTEMS if word in agent), "")
    label = f"{browser} on {system}" if system else browser.capitalize()
    return label[:MAX_LABEL]
