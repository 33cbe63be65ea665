package config

import "testing"

func TestSecretName(t *testing.T) {
	words := secretWordSet()
	for name, want := range map[string]bool{
		"GITHUB_PERSONAL_ACCESS_TOKEN": true, "LINEAR_API_KEY": true, "SLACK_BOT_TOKEN": true,
		"POSTGRES_PASSWORD": true, "Authorization": true, "X-API-Key": true, "GHTOKEN": true,
		"apiKey": true, "Cookie": true,
		"PATH": false, "LOG_LEVEL": false, "KEYBOARD_LAYOUT": false, "PASSTHROUGH": false,
		"PERMISSION_MODE": false, "HOME": false, "NODE_OPTIONS": false,
	} {
		if got := secretName(name, words); got != want {
			t.Errorf("secretName(%q) = %v, want %v", name, got, want)
		}
	}
}
