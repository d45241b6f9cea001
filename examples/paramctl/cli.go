package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
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
}

// command is one paramctl subcommand. Each lives in its own file and
// registers itself in init.
type command struct {
	name  string
	usage string // one line: arguments and flags
	short string // one line: what it does
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
	commands[c.name] = c
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if f, ok := stdin.(*os.File); ok {
		e.stdinIsTerminal = isTerminal(f)
	}
	if f, ok := stderr.(*os.File); ok {
		e.stderrIsTerminal = isTerminal(f)
	}
	if f, ok := stdout.(*os.File); ok {
		e.stdoutIsTerminal = isTerminal(f)
	}
	return e.dispatch(args)
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
		e.help(args)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "unknown command %q; run 'paramctl help'\n", args[0])
		return exitUsage
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
		fmt.Fprintf(e.stderr, "%v\nusage: paramctl %s %s\n", err, c.name, c.usage)
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

func (e *env) help(args []string) {
	if len(args) > 1 {
		if c, ok := commands[args[1]]; ok {
			fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
			if c.setup != nil {
				c.setup(fs)
			}
			e.commandHelp(c, fs)
			return
		}
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
	fmt.Fprintln(e.stdout, "\nRun 'paramctl help COMMAND' for a command's flags.")
}

func (e *env) commandHelp(c *command, fs *flag.FlagSet) {
	fmt.Fprintf(e.stdout, "usage: paramctl %s %s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short)
	fs.SetOutput(e.stdout)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// multiFlag collects a repeatable flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// readInput reads a file argument; "-" is standard input.
func (e *env) readInput(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(e.stdin)
	}
	return os.ReadFile(name)
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
