package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// Exit codes of the command-line contract.
const (
	exitOK      = 0
	exitInvalid = 1 // input read, but invalid, refused, or error findings
	exitUsage   = 2 // usage error or unreadable input
)

// env is what a command runs with; tests pass their own.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// stdinIsTerminal / stderrIsTerminal let commands decide on prompts,
	// colours and progress output.
	stdinIsTerminal, stderrIsTerminal, stdoutIsTerminal bool
	// noColor is true when the NO_COLOR environment variable is set
	// (https://no-color.org): no colour even on a terminal.
	noColor bool
	// lintRootDir is the folder lint names files from; "" finds it from
	// the arguments (newLintRoot). The demo sets it to its stand-in for
	// the repository root.
	lintRootDir string
	// maxInput, when above 0, replaces maxInputSize (tests).
	maxInput int64
}

// colour reports whether output to stdout may be coloured: a terminal,
// and NO_COLOR not set.
func (e *env) colour() bool { return e.stdoutIsTerminal && !e.noColor }

// command is one paramctl subcommand. Each lives in its own file and
// registers itself in init.
type command struct {
	name  string
	usage string // one line: arguments and flags
	short string // one line: what it does
	long  string // optional paragraphs shown by help NAME after short
	// setup declares the command's flags on fs.
	setup func(fs *flag.FlagSet) any
	// run executes with the parsed flags (what setup returned) and the
	// positional arguments, returning the exit status.
	run func(e *env, opts any, args []string) int
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("paramctl: command registered twice: " + c.name)
	}
	if c.setup != nil {
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		c.setup(fs)
		c.usage = completeUsage(c.usage, fs)
	}
	commands[c.name] = c
}

// usageFlag finds the flags a usage line names: "--schema", "-o", at the
// start or after a space, "[" or "(".
var usageFlag = regexp.MustCompile(`(?:^|[\s\[(])(--?[A-Za-z][A-Za-z0-9-]*)`)

// completeUsage keeps a command's one-line usage in step with its flags,
// so that an error's "usage: …" and the help say the same: a flag the line
// names with an argument gets the help's placeholder (`--schema S` becomes
// `--schema FILE`; a list of choices such as `-o yaml|json` stays), and a
// registered flag the line leaves out is added at its end as
// `[--flag ARG]`.
func completeUsage(usage string, fs *flag.FlagSet) string {
	named := map[string]bool{}
	var b strings.Builder
	last := 0
	for _, m := range usageFlag.FindAllStringSubmatchIndex(usage, -1) {
		name := strings.TrimLeft(usage[m[2]:m[3]], "-")
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		named[name] = true
		arg := flagArg(f)
		rest := usage[m[3]:]
		if arg == "" || !strings.HasPrefix(rest, " ") {
			continue
		}
		tok := rest[1:]
		if i := strings.IndexAny(tok, " \n])"); i >= 0 {
			tok = tok[:i]
		}
		if tok == "" || tok == arg || strings.ContainsAny(tok[:1], "-[(|") || strings.Contains(tok, "|") {
			continue
		}
		start := m[3] + 1
		b.WriteString(usage[last:start])
		b.WriteString(arg)
		last = start + len(tok)
	}
	b.WriteString(usage[last:])
	fs.VisitAll(func(f *flag.Flag) {
		if named[f.Name] {
			return
		}
		b.WriteString(" [" + flagName(f.Name))
		if arg := flagArg(f); arg != "" {
			b.WriteString(" " + arg)
		}
		b.WriteString("]")
	})
	return strings.TrimSpace(b.String())
}

// flagPlaceholders name the argument of flags whose usage text gives none
// in backquotes (`NAME`), where the flag package would print "string" or
// "value".
var flagPlaceholders = map[string]string{
	"o": "FORMAT", "schema": "FILE", "values": "FILE", "rules": "SETS", "disable": "RULE",
	"crd-version": "VERSION",
}

// flagArg is the placeholder the help prints after a flag: the backquoted
// name of its usage text, else flagPlaceholders', else the flag package's
// ("string", "value"; none for a boolean flag).
func flagArg(f *flag.Flag) string {
	arg, _ := flag.UnquoteUsage(f)
	if arg == "" || strings.Contains(f.Usage, "`") {
		return arg
	}
	if p, ok := flagPlaceholders[f.Name]; ok {
		return p
	}
	return arg
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return newEnv(stdin, stdout, stderr).dispatch(args)
}

// newEnv is the environment of a run: the streams, whether each is a
// terminal, and NO_COLOR.
func newEnv(stdin io.Reader, stdout, stderr io.Writer) *env {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, noColor: os.Getenv("NO_COLOR") != ""}
	if f, ok := stdin.(*os.File); ok {
		e.stdinIsTerminal = isTerminal(f)
	}
	if f, ok := stderr.(*os.File); ok {
		e.stderrIsTerminal = isTerminal(f)
	}
	if f, ok := stdout.(*os.File); ok {
		e.stdoutIsTerminal = isTerminal(f)
	}
	return e
}

func (e *env) dispatch(args []string) (code int) {
	defer func() {
		// No input may make paramctl panic; should a bug slip through, say
		// so plainly instead of a stack trace.
		if r := recover(); r != nil {
			fmt.Fprintf(e.stderr, "internal error: %v (please report this)\n", r)
			code = exitUsage
		}
	}()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		code := e.help(args)
		if len(args) == 0 {
			return exitUsage
		}
		return code
	}
	if args[0] == "--version" || args[0] == "-version" {
		args = []string{"version"}
	}
	c, ok := commands[args[0]]
	if !ok {
		return e.unknownCommand(args[0])
	}
	fs := flag.NewFlagSet("paramctl "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var opts any
	if c.setup != nil {
		opts = c.setup(fs)
	}
	pos, err := parseInterspersed(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		e.commandHelp(c, fs)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "%s\nusage: paramctl %s %s\n", flagError(fs, err), c.name, c.usage)
		return exitUsage
	}
	return c.run(e, opts, pos)
}

// parseInterspersed lets flags come before or after positional arguments
// (`paramctl convert FILE -o json`), as kubectl and helm do. "--" ends
// flag parsing; a lone "-" is a positional argument (standard input).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// help prints the general help, or a command's with `help NAME`; an
// unknown NAME is a usage error (exit 2) naming the closest commands.
// `help help` is the general help: help is no registered command, but it
// is a name the user was told to type.
func (e *env) help(args []string) int {
	if len(args) > 1 && args[1] != "help" {
		c, ok := commands[args[1]]
		if !ok {
			return e.unknownCommand(args[1])
		}
		fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
		if c.setup != nil {
			c.setup(fs)
		}
		e.commandHelp(c, fs)
		return exitOK
	}
	fmt.Fprintln(e.stdout, "paramctl: structured parameters from the command line\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(e.stdout, "  %-10s %s\n", n, commands[n].short)
	}
	fmt.Fprintln(e.stdout, "\nRun 'paramctl help COMMAND' for a command's flags, 'paramctl demo' for a short tour.")
	return exitOK
}

// unknownCommand reports a command name paramctl does not have, with the
// closest names it does have.
func (e *env) unknownCommand(name string) int {
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	fmt.Fprintf(e.stderr, "unknown command %q%s ('paramctl help' lists every command)\n", name, didYouMean(closest(name, names)))
	return exitUsage
}

func (e *env) commandHelp(c *command, fs *flag.FlagSet) {
	fmt.Fprintf(e.stdout, "%s\n\n%s\n", strings.TrimSpace("usage: paramctl "+c.name+" "+c.usage), c.short)
	if c.long != "" {
		fmt.Fprintf(e.stdout, "\n%s\n", strings.TrimSpace(c.long))
	}
	var flags []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) { flags = append(flags, f) })
	if len(flags) == 0 {
		return
	}
	fmt.Fprintln(e.stdout, "\nFlags:")
	for _, f := range flags {
		printFlag(e.stdout, f)
	}
}

// flagName spells a flag as the README does: --schema, but -o, -p, -P.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// printFlag prints one flag as flag.PrintDefaults would, but spelled
// --flag (the flag package accepts both and prints -flag).
func printFlag(w io.Writer, f *flag.Flag) {
	_, usage := flag.UnquoteUsage(f)
	arg := flagArg(f)
	line := "  " + flagName(f.Name)
	if arg != "" {
		line += " " + arg
	}
	fmt.Fprintf(w, "%s\n    \t%s", line, strings.ReplaceAll(usage, "\n", "\n    \t"))
	if d := f.DefValue; d != "" && d != "false" && d != "0" {
		if isStringFlag(f) {
			fmt.Fprintf(w, " (default %q)", d)
		} else {
			fmt.Fprintf(w, " (default %v)", d)
		}
	}
	fmt.Fprintln(w)
}

// isStringFlag tells a flag.String/StringVar flag (its default is quoted,
// as flag.PrintDefaults does).
func isStringFlag(f *flag.Flag) bool {
	return fmt.Sprintf("%T", f.Value) == "*flag.stringValue"
}

// flagError rewrites the flag package's parse errors into what a person
// can act on: the flag spelled as they typed it and the closest flags the
// command has.
func flagError(fs *flag.FlagSet, err error) string {
	const undefined = "flag provided but not defined: "
	msg := err.Error()
	if !strings.HasPrefix(msg, undefined) {
		return msg
	}
	name := strings.TrimLeft(strings.TrimPrefix(msg, undefined), "-")
	// A one-letter flag is also matched by the word it stands for: no
	// mistyped long word (--outptu) is within a few edits of "o", so -o
	// was never offered. The word counts only where the command has no
	// flag of that name (migrate's --output is a flag of its own).
	flagOf := map[string]string{}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { flagOf[f.Name] = f.Name })
	fs.VisitAll(func(f *flag.Flag) {
		names = append(names, f.Name)
		if long, ok := shortFlagWords[f.Name]; ok && flagOf[long] == "" {
			flagOf[long] = f.Name
			names = append(names, long)
		}
	})
	var spelled []string
	seen := map[string]bool{}
	for _, n := range closest(name, names) {
		if f := flagOf[n]; !seen[f] {
			seen[f] = true
			spelled = append(spelled, flagName(f))
		}
	}
	return fmt.Sprintf("unknown flag %s%s ('%s --help' lists its flags)", flagName(name), didYouMean(spelled), fs.Name())
}

// shortFlagWords are the words paramctl's one-letter flags stand for,
// which a user may type as a long flag.
var shortFlagWords = map[string]string{"o": "output", "v": "verbose", "p": "set", "P": "patch"}

// didYouMean is ": did you mean A or B?" for the suggestions, or "".
func didYouMean(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return ": did you mean " + names[0] + "?"
	}
	return ": did you mean " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1] + "?"
}

// multiFlag collects a repeatable flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// readInput reads a file argument; "-" is standard input. It reads at most
// the input limit (maxInputSize): a larger input is refused, never read
// to the end. Its error names
// the file once and says what went wrong ("nope.yaml: no such file or
// directory", not Go's "nope.yaml: open nope.yaml: …"), so callers print
// it as it is.
func (e *env) readInput(name string) ([]byte, error) {
	if name == "-" {
		data, err := readBounded(e.stdin, e.inputLimit())
		if err != nil {
			return nil, &readError{name: "standard input", err: err}
		}
		return data, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, &readError{name: name, err: pathErr(err)}
	}
	defer f.Close()
	data, err := readBounded(f, e.inputLimit())
	if err != nil {
		return nil, &readError{name: name, err: pathErr(err)}
	}
	return data, nil
}

// readError is a file that could not be read. Its message starts with the
// file's name; print it without naming the file again.
type readError struct {
	name string
	err  error
}

func (r *readError) Error() string { return r.name + ": " + r.err.Error() }

func (r *readError) Unwrap() error { return r.err }

// withFile prefixes a message with the file it is about, unless err is a
// readError, which names its file already.
func withFile(name string, err error) string {
	var re *readError
	if errors.As(err, &re) {
		return err.Error()
	}
	return name + ": " + err.Error()
}

// fail prints an error for the user and returns the given exit code.
func (e *env) fail(code int, format string, a ...any) int {
	fmt.Fprintf(e.stderr, format+"\n", a...)
	return code
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
