package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/paramkit/paramkit/convert/migrate"
)

type versionsOptions struct {
	format   string
	samples  int
	caseFold bool
}

// versionsSamples is how many generated values of each source version
// `versions` converts to find where a pair loses information.
const versionsSamples = 500

func init() {
	register(&command{
		name:  "versions",
		usage: "[--ignore-case] [--samples N] [-o text|json] DIR",
		short: "print a version set: its order, the hub, and whether each conversion is lossless, kept (lossless through the property bag), lossy or refused",
		setup: func(fs *flag.FlagSet) any {
			o := &versionsOptions{}
			fs.StringVar(&o.format, "o", "text", "output `FORMAT`: text or json")
			fs.IntVar(&o.samples, "samples", versionsSamples, "`N` generated values converted per pair to find losses")
			fs.BoolVar(&o.caseFold, "ignore-case", false, "match property names that differ only in case between adjacent versions (reported)")
			return o
		},
		run: runVersions,
	})
}

// versionsPairJSON says how a conversion between two versions of a set
// goes: Status lossless, kept (what the target cannot hold, at Pointers,
// travels in the property bag and comes back: lossless for a round
// trip, as kube.Convert keeps it in an object's annotation), lossy
// (Pointers, from VersionSet.Losses, say where; the reverse direction is
// refused, so no bag) or refused (Reason says why).
type versionsPairJSON struct {
	From     string   `json:"from"`
	To       string   `json:"to"`
	Status   string   `json:"status"`
	Pointers []string `json:"pointers"`
	Reason   string   `json:"reason,omitempty"`
}

type versionsJSON struct {
	Order []string           `json:"order"`
	Hub   string             `json:"hub"`
	Pairs []versionsPairJSON `json:"pairs"`
	Notes []string           `json:"notes,omitempty"`
}

func runVersions(e *env, raw any, args []string) int {
	o := raw.(*versionsOptions)
	if len(args) != 1 {
		return e.fail(exitUsage, "versions needs exactly one DIR holding the version set")
	}
	if o.format != "text" && o.format != "json" {
		return e.fail(exitUsage, "-o must be text or json, not %q", o.format)
	}
	if o.samples < 1 {
		return e.fail(exitUsage, "--samples must be at least 1")
	}
	set, code := e.versionSetOrFail(args[0], o.caseFold)
	if set == nil {
		return code
	}
	pairs := versionPairs(set, o.samples)
	if o.format == "json" {
		out := versionsJSON{Order: set.Order(), Hub: set.Hub(), Pairs: []versionsPairJSON{}, Notes: set.Notes()}
		out.Pairs = append(out.Pairs, pairs...)
		return e.writeJSON(out)
	}
	var b strings.Builder
	b.WriteString("order:")
	for _, name := range set.Order() {
		v, _ := set.Version(name)
		b.WriteString(" " + name)
		var marks []string
		if v.Preview {
			marks = append(marks, "preview")
		}
		if v.NoDowngrade {
			marks = append(marks, "no downgrade")
		}
		if len(marks) > 0 {
			b.WriteString(" (" + strings.Join(marks, ", ") + ")")
		}
	}
	fmt.Fprintf(&b, "\nhub: %s\n", set.Hub())
	for _, n := range set.Notes() {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	kept := false
	for _, p := range pairs {
		fmt.Fprintf(&b, "%s -> %s: %s", p.From, p.To, p.Status)
		switch p.Status {
		case "lossy", "kept":
			b.WriteString(" " + strings.Join(p.Pointers, " "))
			kept = kept || p.Status == "kept"
		case "refused":
			b.WriteString(" (" + p.Reason + ")")
		}
		b.WriteByte('\n')
	}
	if kept {
		b.WriteString(keptNote + "\n")
	}
	_, _ = e.stdout.Write([]byte(b.String()))
	return exitOK
}

// versionSetOrFail loads a version set folder, or reports why it cannot
// (exit 2).
func (e *env) versionSetOrFail(dir string, caseFold bool) (*migrate.VersionSet, int) {
	var opts []migrate.Option
	if caseFold {
		opts = append(opts, migrate.CaseInsensitiveNames())
	}
	set, err := migrate.LoadVersionSet(os.DirFS(dir), opts...)
	if err != nil {
		return nil, e.fail(exitUsage, "%s", inDir(dir, err))
	}
	return set, exitOK
}

// inDir names the folder dir in the lines of an error of reading it: a
// line about one of its files ("v2.json: line 1: ...") names that file
// below dir, any other line starts with dir.
func inDir(dir string, err error) string {
	lines := strings.Split(err.Error(), "\n")
	for i, l := range lines {
		if file, rest, ok := strings.Cut(l, ": "); ok && !strings.ContainsAny(file, "/ ") {
			if _, serr := os.Stat(filepath.Join(dir, file)); serr == nil {
				lines[i] = filepath.Join(dir, file) + ": " + rest
				continue
			}
		}
		lines[i] = dir + ": " + l
	}
	return strings.Join(lines, "\n")
}

// keptNote explains the status kept, once, after the pairs.
const keptNote = "kept: lossless there and back: what the target cannot hold at these pointers travels in the property bag (x-paramkit-bag; kube.Convert keeps it in the object's annotation conversion.paramkit.dev/kept) and comes back; a one-way migrate drops it"

// versionPairs reports, for every ordered pair of distinct versions,
// whether the conversion is refused, lossy (and where, by samples values
// of the source) or lossless.
func versionPairs(set *migrate.VersionSet, samples int) []versionsPairJSON {
	var out []versionsPairJSON
	order := set.Order()
	for _, from := range order {
		for _, to := range order {
			if from == to {
				continue
			}
			p := versionsPairJSON{From: from, To: to, Status: "lossless", Pointers: []string{}}
			if err := set.Refused(from, to); err != nil {
				p.Status, p.Reason = "refused", err.Error()
			} else if ptrs, err := set.Losses(from, to, samples); err != nil {
				p.Status, p.Reason = "refused", err.Error()
			} else if len(ptrs) > 0 {
				p.Status, p.Pointers = "lossy", ptrs
				if set.Refused(to, from) == nil {
					// The reverse is allowed: the bag keeps what
					// the target cannot hold, and it comes back.
					p.Status = "kept"
				}
			}
			out = append(out, p)
		}
	}
	return out
}
