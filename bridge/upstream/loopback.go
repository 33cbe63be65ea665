package upstream

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// loopback is the redirect listener of a login (RFC 8252 7.3): an HTTP
// server on a loopback address that takes the authorization response from
// the browser and hands it to the waiting authorization.
type loopback struct {
	redirect string // http://127.0.0.1:PORT/callback
	srv      *http.Server
	results  chan callback
}

type callback struct {
	res *auth.AuthorizationResult
	err error
}

// listenLoopback listens on redirectURL's host and port, or on a free port
// of 127.0.0.1 when it is empty.
func listenLoopback(redirectURL string) (*loopback, error) {
	addr, path := "127.0.0.1:0", "/callback"
	if redirectURL != "" {
		u, err := url.Parse(redirectURL)
		if err != nil {
			return nil, fmt.Errorf("oauth.redirectUrl: %w", err)
		}
		addr, path = u.Host, u.Path
		if path == "" {
			path = "/"
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listening for the sign-in's redirect on %s: %w", addr, err)
	}
	lb := &loopback{
		redirect: "http://" + ln.Addr().String() + path,
		results:  make(chan callback, 4),
	}
	if redirectURL != "" {
		lb.redirect = redirectURL
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+path, lb.serve)
	lb.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go lb.srv.Serve(ln)
	return lb, nil
}

func (lb *loopback) serve(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var cb callback
	switch {
	case q.Get("error") != "":
		msg := q.Get("error")
		if d := q.Get("error_description"); d != "" {
			msg += ": " + d
		}
		cb.err = fmt.Errorf("the authorization server refused: %s", msg)
	case q.Get("code") == "":
		http.Error(w, "This address takes the answer of a sign-in; this request carries none.", http.StatusBadRequest)
		return
	default:
		cb.res = &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}
	}
	select {
	case lb.results <- cb:
	default:
		http.Error(w, "Too many sign-in answers at once.", http.StatusTooManyRequests)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	title := "Signed in"
	text := "capbridge has the sign-in. You can close this tab."
	if cb.err != nil {
		title, text = "Sign-in refused", cb.err.Error()
	}
	fmt.Fprintf(w, "<!doctype html><title>capbridge: %s</title><h1>%s</h1><p>%s</p>\n", title, title, html.EscapeString(text))
}

// wait returns the next authorization response, or ctx's error.
func (lb *loopback) wait(ctx context.Context) (*auth.AuthorizationResult, error) {
	select {
	case cb := <-lb.results:
		return cb.res, cb.err
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, errors.New("no answer from the browser in time")
		}
		return nil, ctx.Err()
	}
}

func (lb *loopback) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	lb.srv.Shutdown(ctx)
}
