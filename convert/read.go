package convert

import (
	"errors"
	"github.com/paramkit/paramkit/internal/fileread"
	"io/fs"
	"path"

	"github.com/paramkit/paramkit/internal/document"
	"github.com/paramkit/paramkit/internal/kudoparams"
	"github.com/paramkit/paramkit/schema"
)

// The files of a Helm chart folder that make it one and hold its schema
// (a KUDO package's are kudoparams.ParamsFile and OperatorFile).
const (
	chartFile       = "Chart.yaml"
	chartSchemaFile = "values.schema.json"
)

// ReadSchema reads the schema that name, a file or folder of fsys, stands
// for; it is LoadSchema for what a user points at rather than for bytes.
// name is:
//
//   - any file LoadSchema reads (a schema, a v1beta1 params file of either
//     format, an OperatorVersion, a CustomResourceDefinition manifest at
//     its storage version). A file named *.json must be JSON, as
//     the tools that write such files read them (schema.CheckJSONFile);
//   - a KUDO package folder (it holds params.yaml or operator.yaml), or its
//     operator.yaml: the schema of its params.yaml, which lint.ReadPackage
//     reads with the rest of the package; a package without params.yaml
//     has no parameters;
//   - a Helm chart folder (it holds Chart.yaml), or its Chart.yaml: the
//     schema of its values.schema.json, JSON only as Helm reads it.
//
// Errors are those of LoadSchema; for a folder they name the file below
// it that they are about (schema.ErrorIn: "params.yaml: ..."). A file or
// folder that cannot be read, a folder that is neither a package nor a
// chart, and a chart without a values schema give a *schema.Error of kind
// schema.KindIO wrapping the reason (fs.ErrNotExist for what is missing).
func ReadSchema(fsys fs.FS, name string) (*schema.Schema, error) {
	if fsys == nil {
		return nil, schema.NewError(schema.KindUsage, "", "convert: ReadSchema needs a file system")
	}
	src, err := schemaSource(fsys, name)
	if err != nil {
		return nil, err
	}
	if src.file == "" {
		return LoadSchema(kudoparams.NoParameters())
	}
	data, err := fileread.ReadFS(fsys, src.file, fileread.Limit, false)
	if err != nil {
		return nil, src.in(ioError(err))
	}
	if err := schema.CheckJSONFile(src.file, data); err != nil {
		return nil, src.in(err)
	}
	s, err := LoadSchema(data)
	return s, src.in(err)
}

// source is the file that holds the schema name stands for.
type source struct {
	file  string // "" for a package without a params file
	below string // file's name relative to the folder name stands for; "" when name is the file
}

// in names the file of a folder in its errors.
func (s source) in(err error) error {
	if err == nil || s.below == "" {
		return err
	}
	return schema.ErrorIn(s.below, err)
}

// schemaSource finds the file that holds the schema name stands for.
func schemaSource(fsys fs.FS, name string) (source, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return source{}, ioError(err)
	}
	dir := name
	if !fi.IsDir() {
		switch path.Base(name) {
		case chartFile:
			dir = path.Dir(name)
		case kudoparams.OperatorFile:
			if !isOperatorFile(fsys, name) {
				return source{file: name}, nil
			}
			dir = path.Dir(name)
		default:
			return source{file: name}, nil
		}
	}
	has := func(file string) (bool, error) {
		_, err := fs.Stat(fsys, path.Join(dir, file))
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return err == nil, err
	}
	if ok, err := has(chartFile); err != nil || ok {
		if err != nil {
			return source{}, ioError(err)
		}
		if ok, err := has(chartSchemaFile); err != nil || !ok {
			if err == nil {
				err = errNoValuesSchema
			}
			return source{}, ioError(err)
		}
		return source{file: path.Join(dir, chartSchemaFile), below: chartSchemaFile}, nil
	}
	params, err := has(kudoparams.ParamsFile)
	if err != nil {
		return source{}, ioError(err)
	}
	if params {
		return source{file: path.Join(dir, kudoparams.ParamsFile), below: kudoparams.ParamsFile}, nil
	}
	if op, err := has(kudoparams.OperatorFile); err != nil || !op {
		if err == nil {
			err = errNotAFolderWithSchema
		}
		return source{}, ioError(err)
	}
	return source{}, nil
}

var (
	errNoValuesSchema       = &notExist{"the Helm chart has no " + chartSchemaFile}
	errNotAFolderWithSchema = &notExist{"not a KUDO package folder: it holds neither params.yaml nor operator.yaml (nor Chart.yaml, which makes a Helm chart folder)"}
)

// notExist is a file a folder lacks: errors.Is(err, fs.ErrNotExist) holds.
type notExist struct{ msg string }

func (e *notExist) Error() string        { return e.msg }
func (e *notExist) Is(target error) bool { return target == fs.ErrNotExist }

// isOperatorFile reports whether the file is a KUDO operator.yaml (a file
// of that name may be anything else too).
func isOperatorFile(fsys fs.FS, name string) bool {
	data, err := fileread.ReadFS(fsys, name, fileread.Limit, false)
	if err != nil {
		return false
	}
	d, err := document.Read(data, document.Options{})
	return err == nil && kudoparams.IsOperatorFile(d.Value)
}

// ioError is input that cannot be read, a *schema.Error of kind
// schema.KindIO wrapping the error that says why.
func ioError(err error) *schema.Error { return schema.NewError(schema.KindIO, "", "%w", err) }
