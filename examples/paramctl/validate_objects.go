package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/kube"
	"github.com/paramkit/paramkit/params"
	"github.com/paramkit/paramkit/schema"
)

// objectJudge judges Kubernetes objects as kube-apiserver does, each by
// the CustomResourceDefinition of its apiVersion and kind (validate with
// one or more CRDs as --schema).
type objectJudge struct {
	defs []*kube.Definition
	// storage validates a document that is no object (no apiVersion, no
	// kind) as values of the storage version, as validate did before it
	// judged objects: only with one CRD.
	storage *schema.Schema
	old     map[objectKey][]byte
	oldAny  []byte // the one stored object, when --old holds one
	mode    kube.FieldValidation
}

// objectKey names an object: group, kind, namespace and name.
type objectKey struct{ group, kind, namespace, name string }

// objectHead is what selects a definition and an old object.
type objectHead struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name      string `yaml:"name"`
		Namespace string `yaml:"namespace"`
	} `yaml:"metadata"`
}

func (h objectHead) key() objectKey {
	group := ""
	if i := strings.LastIndexByte(h.APIVersion, '/'); i >= 0 {
		group = h.APIVersion[:i]
	}
	return objectKey{group, h.Kind, h.Metadata.Namespace, h.Metadata.Name}
}

// readHead reads apiVersion, kind and the name of a document, leniently:
// a document that does not read has none.
func readHead(text []byte) objectHead {
	var h objectHead
	_ = yaml.Unmarshal(text, &h)
	return h
}

// crdPaths lists the files a --schema names: the file, or the YAML and
// JSON files of a folder (not below it), sorted.
func crdPaths(path string) ([]string, error) {
	fi, err := os.Stat(path)
	if err != nil || !fi.IsDir() {
		return []string{path}, nil
	}
	var out []string
	for _, pat := range []string{"*.yaml", "*.yml", "*.json"} {
		m, err := filepath.Glob(filepath.Join(path, pat))
		if err != nil {
			return nil, err
		}
		out = append(out, m...)
	}
	sort.Strings(out)
	return out, nil
}

// loadObjectJudge reads the CRDs that --schema names, when they are CRDs:
// nil (and exitOK) when the schema is no CRD, so that validate validates
// values as before.
func (e *env) loadObjectJudge(paths []string, old string, mode string) (*objectJudge, int) {
	var files []string
	for _, p := range paths {
		if p == "-" {
			if len(paths) > 1 {
				return nil, e.fail(exitUsage, "validate: standard input (-) as --schema is one schema alone")
			}
			return nil, exitOK
		}
		fs, err := crdPaths(p)
		if err != nil {
			return nil, e.fail(exitUsage, "%s: %v", p, err)
		}
		files = append(files, fs...)
	}
	j := &objectJudge{mode: kube.FieldValidation(mode)}
	for _, f := range files {
		data, err := e.readInput(f)
		if err != nil {
			if len(paths) == 1 {
				return nil, exitOK // the ordinary schema path says it
			}
			fmt.Fprintln(e.stderr, err)
			return nil, exitUsage
		}
		var docs [][]byte
		_ = params.MapStream(context.Background(), bytes.NewReader(data), 1,
			func(d params.Document[any]) (any, error) { return nil, nil },
			func(d params.Document[any]) error { docs = append(docs, d.Text); return nil })
		for _, doc := range docs {
			if !isCRD(doc) {
				continue
			}
			def, err := kube.ReadDefinition(doc)
			if err != nil {
				for _, le := range schema.ErrorsOf(err) {
					fmt.Fprintf(e.stderr, "%s: %s\n", f, le.Error())
				}
				return nil, exitUsage
			}
			j.defs = append(j.defs, def)
		}
	}
	switch {
	case len(j.defs) == 0 && len(paths) == 1:
		// A schema, a chart or a package folder: validated as values.
		return nil, exitOK
	case len(j.defs) == 0:
		return nil, e.fail(exitUsage, "validate: %s holds no CustomResourceDefinition", strings.Join(paths, ", "))
	}
	switch j.mode {
	case kube.FieldValidationStrict, kube.FieldValidationWarn, kube.FieldValidationIgnore:
	default:
		return nil, e.fail(exitUsage, "--field-validation must be Strict, Warn or Ignore, not %q", mode)
	}
	if len(j.defs) == 1 && len(files) == 1 {
		s, code := e.schemaVersionOrFail(files[0], "")
		if s == nil {
			return nil, code
		}
		j.storage = s
	}
	if old != "" {
		data, err := e.readInput(old)
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			return nil, exitUsage
		}
		j.old = map[objectKey][]byte{}
		n := 0
		_ = params.MapStream(context.Background(), bytes.NewReader(data), 1,
			func(d params.Document[any]) (any, error) { return nil, nil },
			func(d params.Document[any]) error {
				n++
				j.old[readHead(d.Text).key()] = d.Text
				j.oldAny = d.Text
				return nil
			})
		if n != 1 {
			j.oldAny = nil
		}
		if n == 0 {
			return nil, e.fail(exitUsage, "%s: the input holds no document", old)
		}
	}
	return j, exitOK
}

// judge gives one document's verdict.
func (j *objectJudge) judge(ctx context.Context, d params.Document[any], file string) validateResult {
	r := validateResult{Document: d.Index, Errors: []errorRecord{}, Warnings: &[]errorRecord{}}
	h := readHead(d.Text)
	if h.APIVersion == "" && h.Kind == "" && j.storage != nil {
		// No object: values of the storage version, as before.
		v, err := params.Decode(j.storage, d.Text)
		if err == nil {
			err = params.Validate(j.storage, v)
		}
		r.Warnings = nil
		vd := verdict(params.Document[any]{Index: d.Index, Line: d.Line, Text: d.Text, Value: v, Err: d.Locate(err)}, file)
		vd.Document = d.Index
		return vd
	}
	var def *kube.Definition
	for _, c := range j.defs {
		if c.Defines(h.APIVersion, h.Kind) {
			def = c
			break
		}
	}
	if def == nil {
		if len(j.defs) == 1 {
			def = j.defs[0] // its verdict names what does not match
		} else {
			r.Errors = append(r.Errors, errorRecord{Pointer: "/kind", Field: "kind", Kind: schema.KindNotFound,
				Message: fmt.Sprintf("no CustomResourceDefinition given defines %s in %s (%s)", orNone(h.Kind), orNone(h.APIVersion), definedKinds(j.defs)), line: d.Line})
			return r
		}
	}
	o := &kube.JudgeOptions{FieldValidation: j.mode}
	if j.old != nil {
		o.Old = j.old[h.key()]
		if o.Old == nil && j.oldAny != nil && readHead(j.oldAny).key().kind == h.Kind {
			o.Old = j.oldAny
		}
	}
	v, err := def.Judge(ctx, d.Text, o)
	if err != nil {
		r.unreadable = true
		for _, e := range schema.ErrorsOf(err) {
			rec := errorRecord{Pointer: e.Pointer, Message: e.Message, Kind: e.Kind, line: e.Line, column: e.Column}
			if rec.line == 0 {
				rec.line = d.Line
			} else {
				rec.line += d.Line - 1
			}
			r.Errors = append(r.Errors, rec)
		}
		return r
	}
	r.Valid = v.Valid()
	r.Errors = objectRecords(v.Errors, d.Line)
	*r.Warnings = objectRecords(v.Warnings, d.Line)
	return r
}

func orNone(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

func definedKinds(defs []*kube.Definition) string {
	var out []string
	for _, d := range defs {
		out = append(out, d.Kind()+" in "+d.Group())
	}
	return "they define " + strings.Join(out, ", ")
}

// objectRecords are a verdict's errors or warnings as records, with
// their field path and cause type, lines of the stream.
func objectRecords(l schema.ErrorList, line int) []errorRecord {
	out := make([]errorRecord, 0, len(l))
	for _, e := range l {
		rec := errorRecord{Pointer: e.Pointer, Field: e.FieldPath(""), Type: kube.CauseType(e), Message: e.Message, Kind: e.Kind, line: e.Line, column: e.Column}
		if rec.line > 0 {
			rec.line += line - 1
		} else {
			rec.line, rec.column = line, 1
		}
		out = append(out, rec)
	}
	return out
}

// fileObjects judges the objects of one file and returns its exit status.
func (v *validateRun) fileObjects(name string) int {
	e := v.e
	in, err := e.openInput(name)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitUsage
	}
	defer in.Close()
	file := ""
	if v.many {
		file = name
	}
	var st streamVerdicts
	err = params.MapStream(context.Background(), in, 0,
		func(d params.Document[any]) (any, error) {
			r := v.objects.judge(context.Background(), d, inputName(name))
			return r, nil
		},
		func(d params.Document[any]) error {
			r := d.Value.(validateResult)
			r.File = file
			v.add(&st, r, d.Index)
			return nil
		})
	return v.finish(&st, name, err)
}
