package main

import (
	"flag"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestManualNamesEveryFlag: paramctl's manual (README.md here) is where
// users look for the command-line contract, so every command and every
// flag a command registers must appear in it, spelled as the help spells
// it (--schema, -o). A flag added without a word in the manual fails here.
func TestManualNamesEveryFlag(t *testing.T) {
	data, err := os.ReadFile("README.md")
	require.NoError(t, err)
	manual := string(data)

	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	require.NotEmpty(t, names)
	for _, name := range names {
		c := commands[name]
		assert.Truef(t, strings.Contains(manual, "paramctl "+name), "the manual does not name the command: paramctl %s", name)
		if c.setup == nil {
			continue
		}
		fs := flag.NewFlagSet(name, flag.ContinueOnError)
		c.setup(fs)
		fs.VisitAll(func(f *flag.Flag) {
			spelled := flagName(f.Name)
			token := regexp.MustCompile(`(^|[^\w-])` + regexp.QuoteMeta(spelled) + `([^\w-]|$)`)
			assert.Truef(t, token.MatchString(manual), "the manual does not name the flag %s of paramctl %s", spelled, name)
		})
	}
}
