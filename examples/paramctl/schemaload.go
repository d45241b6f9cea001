package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/lint"
	"github.com/paramkit/paramkit/schema"
)

// loadSchemaVersion reads the schema named by --schema. Every command
// that takes a schema reads it here, through convert.ReadSchema: a v1beta2
// schema, a v1beta1 params.yaml (either format) or an OperatorVersion of
// either version (converted on the fly), a KUDO package folder (or its
// operator.yaml) for its params.yaml, a Helm chart folder for its
// values.schema.json, or a CustomResourceDefinition's version crdVersion
// ("" for its storage version); "-" is standard input, read by
// convert.LoadSchema. It fails only for what makes the schema unusable;
// the error is a schema.ErrorList with pointers into the file, or the
// error of reading the file.
func loadSchemaVersion(e *env, path, crdVersion string) (*schema.Schema, error) {
	opt := convert.WithCRDVersion(crdVersion)
	if path == "-" {
		data, err := e.readInput(path)
		if err != nil {
			return nil, err
		}
		return convert.LoadSchema(data, opt)
	}
	dir, name := filepath.Split(filepath.Clean(path))
	if !fs.ValidPath(name) { // "..", "/"
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, &readError{name: path, err: err}
		}
		dir, name = filepath.Split(abs)
		if name == "" {
			name = "."
		}
	}
	if dir == "" {
		dir = "."
	}
	s, err := convert.ReadSchema(os.DirFS(dir), name, opt)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		// Named as the user wrote it, not as the folder's file system does.
		return nil, &readError{name: path, err: pe.Err}
	}
	return s, err
}

// inFolder shows an error message of a schema read from a folder (a Helm
// chart, a KUDO package) on the file below it that the message names
// (convert.ReadSchema starts it with values.schema.json or params.yaml):
// "chart/values.schema.json: line 4: ..." rather than "chart:
// values.schema.json: line 4: ...".
func inFolder(path, msg string) string {
	for _, f := range []struct{ dir, file string }{{chartDir(path), chartSchemaFile}, {packageDir(path), "params.yaml"}} {
		if f.dir != "" && strings.HasPrefix(msg, f.file+": ") {
			return filepath.Join(f.dir, f.file) + msg[len(f.file):]
		}
	}
	return path + ": " + msg
}

// chartDir returns the Helm chart folder a path stands for: the path
// itself when it is a folder holding Chart.yaml, its folder when it is a
// Chart.yaml; "" otherwise.
func chartDir(path string) string {
	if path == "-" || path == "" {
		return ""
	}
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	if fi.IsDir() {
		if ci, err := os.Stat(filepath.Join(path, chartFile)); err == nil && ci.Mode().IsRegular() {
			return path
		}
		return ""
	}
	if filepath.Base(path) == chartFile {
		return filepath.Dir(path)
	}
	return ""
}

// packageDir returns the KUDO package folder a path stands for: the path
// itself when it is a folder (and no Helm chart), its folder when it is a
// KUDO operator.yaml (which stands for its package); "" otherwise.
func packageDir(path string) string {
	if path == "-" || path == "" || chartDir(path) != "" {
		return ""
	}
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	if fi.IsDir() {
		return path
	}
	if filepath.Base(path) == "operator.yaml" {
		if data, err := os.ReadFile(path); err == nil && isOperatorFile(data) {
			return filepath.Dir(path)
		}
	}
	return ""
}

// isOperatorFile reports whether data is a KUDO operator.yaml, which lint
// refuses (cheaply, before any rule runs) with lint.ErrOperatorFile.
func isOperatorFile(data []byte) bool {
	_, err := lint.Document(data)
	return errors.Is(err, lint.ErrOperatorFile)
}

// readSchemaInput reads a schema or params file, the values schema of the
// Helm chart a path stands for, or the package folder a path stands for
// (then data is its params file and pkg the package). A file named *.json
// must be JSON: its syntax error, with the line, is the error. It is for
// the commands that need the text or the whole package (convert, lint,
// triggers' plans); a command that needs the schema alone reads it with
// loadSchemaVersion.
func readSchemaInput(e *env, path string) (data []byte, pkg *lint.Package, err error) {
	if dir := chartDir(path); dir != "" {
		file := filepath.Join(dir, chartSchemaFile)
		data, err := e.readInput(file)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("%s: the Helm chart has no %s", dir, chartSchemaFile)
		}
		if err == nil {
			err = checkJSONFile(file, data)
		}
		return data, nil, err
	}
	if dir := packageDir(path); dir != "" {
		pkg, err := lint.ReadPackage(os.DirFS(dir))
		if err != nil {
			return nil, nil, &os.PathError{Op: "read package", Path: path, Err: err}
		}
		return pkg.Params, pkg, nil
	}
	data, err = e.readInput(path)
	if err == nil {
		err = checkJSONFile(path, data)
	}
	return data, nil, err
}

// checkJSONFile is schema.CheckJSONFile with the file named in the error.
func checkJSONFile(path string, data []byte) error {
	if err := schema.CheckJSONFile(path, data); err != nil {
		return &readError{name: path, err: err}
	}
	return nil
}

// notSchema returns the error that says a document is no schema at all
// (a flat map of values), a *schema.Error of kind schema.KindNotSchema.
func notSchema(err error) (*schema.Error, bool) {
	var se *schema.Error
	if errors.As(err, &se) && se.Kind == schema.KindNotSchema {
		return se, true
	}
	return nil, false
}

// schemaVersionOrFail is schemaOrFail where crdVersion picks the version
// of a CustomResourceDefinition manifest ("" the storage version).
func (e *env) schemaVersionOrFail(path, crdVersion string) (*schema.Schema, int) {
	s, err := loadSchemaVersion(e, path, crdVersion)
	if err != nil {
		var list schema.ErrorList
		if asList(err, &list) {
			for _, le := range list {
				msg := le.Error()
				if le.Kind == schema.KindNotSchema {
					msg = le.Message // about the whole file, no place in it
				}
				fmt.Fprintln(e.stderr, inFolder(path, msg))
			}
		} else if re := (*readError)(nil); errors.As(err, &re) {
			fmt.Fprintln(e.stderr, err)
		} else {
			fmt.Fprintln(e.stderr, inFolder(path, err.Error()))
		}
		if insideSchema(list) {
			// The same schema gives lint findings (exit 1): say why this
			// command stops with 2 instead.
			fmt.Fprintf(e.stderr, "%s: the schema is unusable, so this command stops (exit 2); 'paramctl lint %s' lists such faults as findings (exit 1)\n", path, path)
		}
		return nil, exitUsage
	}
	return s, exitOK
}
