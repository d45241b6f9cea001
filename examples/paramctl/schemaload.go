package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/paramkit/paramkit/convert"
	"github.com/paramkit/paramkit/kube"
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
	if path == "-" || (crdVersion != "" && isFile(path)) {
		data, err := e.readInput(path)
		if err != nil {
			return nil, err
		}
		if crdVersion != "" && isCRD(data) {
			if err := schema.CheckJSONFile(path, data); err != nil {
				return nil, err
			}
			return crdVersionSchema(data, crdVersion)
		}
		if path == "-" {
			return convert.LoadSchema(data)
		}
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
	s, err := convert.ReadSchema(limitFS{os.DirFS(dir), e.inputLimit()}, name)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		// Named as the user wrote it, not as the folder's file system does.
		return nil, &readError{name: path, err: pe.Err}
	}
	return s, err
}

// crdVersionSchema is the schema of the version name of a
// CustomResourceDefinition manifest (convert.LoadSchema reads the storage
// version); errors point into the manifest.
func crdVersionSchema(data []byte, name string) (*schema.Schema, error) {
	vs, err := kube.CRDVersions(data)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(vs))
	for _, v := range vs {
		if v.Name == name {
			return v.Schema, nil
		}
		names = append(names, v.Name)
	}
	return nil, schema.ErrorList{{Pointer: "/spec/versions", Kind: schema.KindNotFound, Message: fmt.Sprintf("the CustomResourceDefinition has no version %q with a schema (it has %s)", name, strings.Join(names, ", "))}}.Err()
}

// isCRD reports whether data is a CustomResourceDefinition manifest.
func isCRD(data []byte) bool {
	if !bytes.Contains(data, []byte("CustomResourceDefinition")) {
		return false
	}
	var m struct {
		Kind string `yaml:"kind"`
	}
	return yaml.Unmarshal(data, &m) == nil && m.Kind == "CustomResourceDefinition"
}

// crdVersionPointer is where the schema of the version name of a
// CustomResourceDefinition manifest sits in it (its own schema, or the
// one in spec.validation that a v1beta1 manifest shares), without
// compiling it: lint reports what a schema gets wrong.
func crdVersionPointer(data []byte, name string) (string, error) {
	var m struct {
		Spec struct {
			Version  string `yaml:"version"`
			Versions []struct {
				Name   string `yaml:"name"`
				Schema struct {
					OpenAPIV3Schema any `yaml:"openAPIV3Schema"`
				} `yaml:"schema"`
			} `yaml:"versions"`
			Validation struct {
				OpenAPIV3Schema any `yaml:"openAPIV3Schema"`
			} `yaml:"validation"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal(data, &m); err != nil {
		return "", schema.NewError(schema.KindSyntax, "", "%v", err)
	}
	const common = "/spec/validation/openAPIV3Schema"
	shared := m.Spec.Validation.OpenAPIV3Schema != nil
	var names []string
	for i, v := range m.Spec.Versions {
		own := v.Schema.OpenAPIV3Schema != nil
		if !own && !shared {
			continue
		}
		if v.Name == name {
			if own {
				return fmt.Sprintf("/spec/versions/%d/schema/openAPIV3Schema", i), nil
			}
			return common, nil
		}
		names = append(names, v.Name)
	}
	if len(m.Spec.Versions) == 0 && shared {
		if m.Spec.Version == name {
			return common, nil
		}
		names = append(names, m.Spec.Version)
	}
	return "", &schema.Error{Pointer: "/spec/versions", Kind: schema.KindNotFound, Message: fmt.Sprintf("the CustomResourceDefinition has no version %q with a schema (it has %s)", name, strings.Join(names, ", "))}
}

// isFile reports whether path names a file (not a folder).
func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
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
		if data, err := readFileBounded(path); err == nil && isOperatorFile(data) {
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
