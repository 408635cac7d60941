package web

import "strings"

// DeviceName names a device from its browser's User-Agent, "Chrome on Linux", from a fixed
// vocabulary only: what the browser sends is never printed.
func DeviceName(ua string) string {
	has := func(s ...string) bool {
		for _, x := range s {
			if strings.Contains(ua, x) {
				return true
			}
		}
		return false
	}
	browser := "a browser"
	switch {
	case has("Edg/", "EdgA/", "EdgiOS/"):
		browser = "Edge"
	case has("OPR/"):
		browser = "Opera"
	case has("Firefox/", "FxiOS/"):
		browser = "Firefox"
	case has("Chrome/", "CriOS/", "Chromium/"):
		browser = "Chrome"
	case has("Safari/"):
		browser = "Safari"
	case strings.HasPrefix(ua, "curl/"):
		browser = "curl"
	}
	system := ""
	switch {
	case has("Android"):
		system = "Android"
	case has("iPhone"):
		system = "iPhone"
	case has("iPad"):
		system = "iPad"
	case has("CrOS"):
		system = "ChromeOS"
	case has("Macintosh", "Mac OS X"):
		system = "macOS"
	case has("Windows"):
		system = "Windows"
	case has("Linux", "X11"):
		system = "Linux"
	}
	if system == "" {
		return browser
	}
	return browser + " on " + system
}
