package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/internal/yamlx"
	"github.com/paramkit/paramkit/params"
)

// runMigrateVersions is `migrate --versions DIR --from A --to B`: each
// document of the stream converts from version A to version B of the set
// through its hub, with the same report, --allow-lossy, --dry-run,
// --continue and --output as the --schema form. With --api-version each
// document is a whole Kubernetes object.
//
// Documents are read by version A's schema (convert.Decode): a YAML plain
// scalar no node types (an undeclared key, anything under a free-form
// object) keeps the text its author wrote, so that the YAML output, the
// property bag and the report of what was dropped show 007 as 007, not 7.
// JSON has no plain scalars: -o json gives what such text means.
func runMigrateVersions(e *env, o *migrateOptions, file string) int {
	switch {
	case o.versions == "":
		return e.fail(exitUsage, "--from, --to, --api-version and --kind need --versions DIR")
	case o.schema != "" || len(o.via) > 0:
		return e.fail(exitUsage, "--versions replaces --schema and --via: give one or the other")
	case o.from == "" || o.to == "":
		return e.fail(exitUsage, "migrate --versions needs --from A and --to B")
	case o.kind != "" && o.apiVersion == "":
		return e.fail(exitUsage, "--kind needs --api-version GROUP/VERSION")
	case o.format != "yaml" && o.format != "json":
		return e.fail(exitUsage, "-o must be yaml or json, not %q", o.format)
	}
	set, code := e.versionSetOrFail(o.versions, o.ignoreCase)
	if set == nil {
		return code
	}
	from, ok := set.Version(o.from)
	if !ok {
		return e.fail(exitUsage, "%s: no version %q (versions: %v)", o.versions, o.from, set.Order())
	}
	to, ok := set.Version(o.to)
	if !ok {
		return e.fail(exitUsage, "%s: no version %q (versions: %v)", o.versions, o.to, set.Order())
	}
	if err := set.Refused(o.from, o.to); err != nil {
		var re *convert.RefusedError
		if errors.As(err, &re) {
			return e.fail(exitInvalid, "%v", err)
		}
		return e.fail(exitUsage, "%v", err)
	}
	for _, n := range set.Notes() {
		fmt.Fprintf(e.stderr, "note: %s\n", n)
	}
	var copts []convert.ConvertOption
	if o.allowLossy {
		copts = append(copts, convert.AllowLossyChanges())
	}
	data, err := e.readInput(file)
	if err != nil {
		return e.fail(exitUsage, "%v", err)
	}
	docs := yamlx.SplitDocuments(data)
	if len(docs) == 0 {
		return e.fail(exitUsage, "%s: the input holds no document", file)
	}
	results := make([]convert.Result, len(docs))
	for i, doc := range docs {
		v, err := convert.Decode(from.Schema, doc)
		if err != nil {
			results[i] = convert.Result{Errors: []*convert.MigrationError{{Message: err.Error()}}}
			continue
		}
		var r convert.Result
		if o.apiVersion != "" {
			r, err = set.ConvertObject(v, o.from, o.to, convert.ObjectTarget{APIVersion: o.apiVersion, Kind: o.kind}, copts...)
		} else {
			r, err = set.Convert(v, o.from, o.to, copts...)
		}
		if err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		results[i] = r
	}

	failed := migrateCountFailed(results) > 0
	status := exitOK
	if failed {
		status = exitInvalid
	}
	write := !o.dryRun && (!failed || o.cont)
	if o.format == "json" {
		var b bytes.Buffer
		for i := range results {
			migrateWriteJSON(&b, to.Schema, &results[i], !o.dryRun)
		}
		return e.migrateEmit(o, b.Bytes(), status, write)
	}
	report := e.stderr
	if o.dryRun {
		report = e.stdout
	}
	for i := range results {
		r := results[i]
		r.Dropped = make([]convert.Dropped, len(results[i].Dropped))
		for j, d := range results[i].Dropped {
			r.Dropped[j] = convert.Dropped{Pointer: d.Pointer, Value: plainScalarsAsWritten(d.Value, reportPlain)}
		}
		migrateWriteReport(report, i, len(docs) > 1, &r)
	}
	if o.dryRun {
		migratePrintSummary(e.stdout, results)
		return status
	}
	if !write {
		fmt.Fprintf(e.stderr, "nothing written: %s with errors (use --continue to write anyway)\n", migrateCountNoun(migrateCountFailed(results), "document"))
		return status
	}
	var b bytes.Buffer
	for i := range results {
		if i > 0 {
			b.WriteString("---\n")
		}
		r := &results[i]
		if r.Values == nil && !r.OK() {
			b.Write(docs[i])
			if len(docs[i]) > 0 && docs[i][len(docs[i])-1] != '\n' {
				b.WriteByte('\n')
			}
			continue
		}
		y, err := params.MarshalYAML(to.Schema, plainScalarsAsWritten(r.Values, nil))
		if err != nil {
			return e.fail(exitUsage, "doc %d: %v", i, err)
		}
		b.Write(y)
	}
	return e.migrateEmit(o, b.Bytes(), status, write)
}

// migrateEmit writes the output to --output (whole or not at all) or to
// standard output.
func (e *env) migrateEmit(o *migrateOptions, out []byte, status int, write bool) int {
	if o.output != "" && write {
		if err := migrateWriteFile(o.output, out); err != nil {
			return e.fail(exitUsage, "%v", err)
		}
		return status
	}
	_, _ = e.stdout.Write(out)
	return status
}

// plainScalarsAsWritten prepares values that hold convert.PlainScalar for
// paramkit's writers, which do not know that type (they would write what
// it means): each text whose bare form may be shown (all of them when
// bare is nil) becomes a json.Number of the same text, which the YAML
// writer writes untagged and plain, and the JSON writer of the text
// report as it is, so that it comes out as its author wrote it. Where YAML
// cannot write a text plain, it quotes it, and such text is a string by
// YAML 1.2 core rules anyway. The other texts become what they mean. v is
// not modified; what holds no text is shared, not copied.
func plainScalarsAsWritten(v any, bare func(string) bool) any {
	if v == convert.PlainScalar("") {
		return nil // a whole document written empty would be no document
	}
	out, _ := asWritten(v, bare)
	return out
}

func asWritten(v any, bare func(string) bool) (any, bool) {
	switch t := v.(type) {
	case convert.PlainScalar:
		if bare == nil || bare(string(t)) {
			return json.Number(t), true
		}
		return t.Value(), true
	case map[string]any:
		var out map[string]any
		for k, x := range t {
			if y, changed := asWritten(x, bare); changed {
				if out == nil {
					out = make(map[string]any, len(t))
					for k2, x2 := range t {
						out[k2] = x2
					}
				}
				out[k] = y
			}
		}
		if out != nil {
			return out, true
		}
	case []any:
		var out []any
		for i, x := range t {
			if y, changed := asWritten(x, bare); changed {
				if out == nil {
					out = append([]any(nil), t...)
				}
				out[i] = y
			}
		}
		if out != nil {
			return out, true
		}
	}
	return v, false
}

// reportPlain: text a report line shows bare, as written (007, 0x1F,
// 1.10, yes, ~, -5, 1e3), where it cannot be taken for JSON syntax or
// break the line; other text is shown as the JSON of what it means.
func reportPlain(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '+' || c == '-' || c == '~') {
			return false
		}
	}
	return true
}
