package main

import "github.com/go-openapi/jsonpointer"

// tokens splits a JSON pointer into its unescaped tokens (none for the
// root or a malformed pointer).
func tokens(ptr string) []string {
	p, err := jsonpointer.New(ptr)
	if err != nil {
		return nil
	}
	return p.DecodedTokens()
}

// appendToken returns the pointer p with one more token, escaped as RFC
// 6901 says ("~" as "~0", "/" as "~1").
func appendToken(p, tok string) string { return p + "/" + jsonpointer.Escape(tok) }
