package main

import "github.com/paramkit/paramkit/kube"

// Server serves a Handler over HTTPS: kube's server (TLS 1.2 or later,
// handshake and header timeouts, HTTP/2 off unless EnableHTTP2, the
// certificate re-read when its files change, the client CA); see
// kube.Server.
type Server = kube.Server
