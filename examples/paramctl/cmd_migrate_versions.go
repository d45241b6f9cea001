package main

import (
	"errors"
	"fmt"

	"github.com/paramkit/paramkit/convert/migrate"
	"github.com/paramkit/paramkit/schema"
)

// runMigrateVersions is `migrate --versions DIR --from A --to B`: each
// document of the stream converts from version A to version B of the set
// through its hub, with the same report, --allow-lossy, --dry-run,
// --continue and --output as the --schema form. With --api-version each
// document is a whole Kubernetes object.
//
// Each document's bytes go to the set (ConvertDocument, or
// ConvertObjectDocument): read by version A's schema, a YAML plain scalar
// that A does not type (an undeclared key, anything under a free-form
// object) keeps its text until a node of a version on the way types it
// (code: 007 is "007" where B declares code a string); where none does, it
// is what YAML 1.2 core rules say (007 is 7), in the output, the property
// bag and the report alike.
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
	_, ok := set.Version(o.from)
	if !ok {
		return e.fail(exitUsage, "%s: no version %q (versions: %v)", o.versions, o.from, set.Order())
	}
	to, ok := set.Version(o.to)
	if !ok {
		return e.fail(exitUsage, "%s: no version %q (versions: %v)", o.versions, o.to, set.Order())
	}
	if err := set.Refused(o.from, o.to); err != nil {
		var re *schema.Error
		if errors.As(err, &re) && re.Kind == schema.KindRefused {
			return e.fail(exitInvalid, "%v", err)
		}
		return e.fail(exitUsage, "%v", err)
	}
	for _, n := range set.Notes() {
		fmt.Fprintf(e.stderr, "note: %s\n", n)
	}
	var copts []migrate.Option
	if o.allowLossy {
		copts = append(copts, migrate.AllowLossy())
	}
	return e.migrateStreamed(o, to.Schema, file, func(doc []byte) (migrate.Result, schema.ErrorList, error) {
		var r migrate.Result
		var err error
		if o.apiVersion != "" {
			r, err = set.ConvertObjectDocument(doc, o.from, o.to, migrate.ObjectTarget{APIVersion: o.apiVersion, Kind: o.kind}, copts...)
		} else {
			r, err = set.ConvertDocument(doc, o.from, o.to, copts...)
		}
		if de, ok := readFailure(err); ok {
			return migrate.Result{}, schema.ErrorList{de}, nil // its line becomes the stream's
		}
		var se *schema.Error
		if errors.As(err, &se) && se.Kind == schema.KindUsage {
			// Nothing converted, not for this document's sake (an
			// apiVersion that is none): the run cannot go on.
			return r, nil, err
		}
		return r, schema.ErrorsOf(err), nil
	})
}
