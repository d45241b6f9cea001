// Command paramctl is paramkit's command-line tool and its main example:
// convert v1beta1 parameters, unwrap and migrate values, apply updates,
// validate, default, list, lint, apply feature gates and serve webhooks.
//
// Exit status: 0 done; 1 the input was read and is invalid, refused, or
// has error-level findings; 2 usage error or unreadable input. Errors go to
// standard error, one a line, as `POINTER: message` where a location exists.
//
// Run `paramctl help` for the commands, `paramctl demo` for a short tour
// on embedded files, `paramctl version` for the module and Go versions.
package main

import (
	"os"
)

func main() {
	narrowGC = true
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
