package main

import (
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
)

func init() {
	register(&command{
		name:  "version",
		usage: "",
		short: "print paramctl's module version (from build info) and the Go version; also --version",
		setup: func(fs *flag.FlagSet) any { return nil },
		run: func(e *env, _ any, args []string) int {
			if len(args) > 0 {
				return e.fail(exitUsage, "version takes no arguments (got %q)", args[0])
			}
			fmt.Fprintln(e.stdout, versionLine())
			return exitOK
		},
	})
}

// versionLine is "paramctl VERSION (MODULE) GOVERSION OS/ARCH". VERSION is
// the module version `go install …@vX` records in the binary; a build from
// a checkout (go run, go build) records none and says (devel).
func versionLine() string {
	version, module, goVersion := "(devel)", "github.com/paramkit/paramkit", runtime.Version()
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" {
			version = v
		}
		if bi.Main.Path != "" {
			module = bi.Main.Path
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
	}
	return fmt.Sprintf("paramctl %s (%s) %s %s/%s", version, module, goVersion, runtime.GOOS, runtime.GOARCH)
}
