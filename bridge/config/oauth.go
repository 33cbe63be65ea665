package config

import (
	"errors"
	"fmt"
	"net/url"
)

// OAuth is how capbridge signs in to a remote server that asks for OAuth
// (`capbridge login`). Every field is optional: with none, capbridge
// registers itself with the server's authorization server (dynamic client
// registration, RFC 7591) and listens for the redirect on a free loopback
// port.
type OAuth struct {
	// ClientID and ClientSecret name a client registered beforehand with the
	// authorization server. The secret may be, and should be, a
	// ${secret:NAME}.
	ClientID     string
	ClientSecret string
	// ClientMetadataURL is an https URL where a Client ID Metadata Document
	// for capbridge is published; used when the authorization server
	// supports such documents.
	ClientMetadataURL string
	// RedirectURL is the loopback address the browser returns to, for an
	// authorization server that insists on a fixed one
	// ("http://127.0.0.1:8976/callback"). Empty: a free port.
	RedirectURL string
}

type oauthFile struct {
	ClientID          string `json:"clientId"`
	ClientSecret      string `json:"clientSecret"`
	ClientMetadataURL string `json:"clientMetadataUrl"`
	RedirectURL       string `json:"redirectUrl"`
}

func oauthConfig(name string, f *oauthFile, x *expander) (*OAuth, error) {
	if f == nil {
		return nil, nil
	}
	o := &OAuth{
		ClientID:          x.expand(name, "oauth.clientId", f.ClientID),
		ClientSecret:      x.expand(name, "oauth.clientSecret", f.ClientSecret),
		ClientMetadataURL: f.ClientMetadataURL,
		RedirectURL:       f.RedirectURL,
	}
	if o.ClientSecret != "" && o.ClientID == "" {
		return nil, errors.New("oauth.clientSecret needs oauth.clientId")
	}
	if u := o.ClientMetadataURL; u != "" {
		p, err := url.Parse(u)
		if err != nil || p.Scheme != "https" || p.Host == "" || p.Path == "" || p.Path == "/" {
			return nil, fmt.Errorf("oauth.clientMetadataUrl %q must be an https URL with a path", u)
		}
	}
	if u := o.RedirectURL; u != "" {
		p, err := url.Parse(u)
		if err != nil || p.Scheme != "http" || (p.Hostname() != "127.0.0.1" && p.Hostname() != "localhost" && p.Hostname() != "::1") || p.Port() == "" {
			return nil, fmt.Errorf("oauth.redirectUrl %q must be a loopback http URL with a port, e.g. \"http://127.0.0.1:8976/callback\"", u)
		}
	}
	return o, nil
}
