package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/paramkit/paramkit/convert/kudo"
	"github.com/paramkit/paramkit/schema"
)

// SchemaResolver finds the parameter schema of an operator version. It is
// the webhook's answer to the KEP's open question (a conversion webhook
// cannot read the OperatorVersion from the cluster by default): the schema
// comes from wherever the resolver keeps it. DirResolver reads a directory
// (a mounted ConfigMap, for instance); a resolver backed by an API client
// or an informer cache fits the same interface.
//
// Resolve must be safe for concurrent use and fast: it is called for every
// Instance of every review. It returns an error wrapping ErrSchemaNotFound
// when it has no schema for the name, and another error when it has one
// that cannot be used.
//
// What it returns is a compiled kudo.OperatorVersion (kudo.Load,
// kudo.FromObject or kudo.New), built once per version of the schema,
// never per review.
type SchemaResolver interface {
	Resolve(ctx context.Context, namespace, name string) (*kudo.OperatorVersion, error)
}

// ResolverFunc adapts a function to a SchemaResolver.
type ResolverFunc func(ctx context.Context, namespace, name string) (*kudo.OperatorVersion, error)

// Resolve calls f.
func (f ResolverFunc) Resolve(ctx context.Context, namespace, name string) (*kudo.OperatorVersion, error) {
	return f(ctx, namespace, name)
}

// ErrSchemaNotFound is wrapped by resolver errors that mean "no schema for
// this operator version" (as opposed to a schema that is broken).
var ErrSchemaNotFound = errors.New("no schema for the operator version")

// NotFoundError says which operator version had no schema and where the
// resolver looked.
type NotFoundError struct {
	// Name is the operator version.
	Name string
	// Looked lists what was tried (files, for DirResolver).
	Looked []string
	// Reason, when set, replaces the default explanation.
	Reason string
}

// Error says which operator version has no schema and where the resolver
// looked.
func (e *NotFoundError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("no schema for operator version %q: %s", e.Name, e.Reason)
	}
	switch len(e.Looked) {
	case 0:
		return fmt.Sprintf("no schema for operator version %q", e.Name)
	case 1:
		return fmt.Sprintf("no schema for operator version %q: %s does not exist", e.Name, e.Looked[0])
	}
	return fmt.Sprintf("no schema for operator version %q: neither %s nor %s exists", e.Name, e.Looked[0], e.Looked[1])
}

// Unwrap makes errors.Is(err, ErrSchemaNotFound) true.
func (e *NotFoundError) Unwrap() error { return ErrSchemaNotFound }

// DirResolver serves schemas from a directory holding one file per
// operator version, NAME.yaml or NAME.json, where NAME is what an
// Instance's spec.operatorVersion.name says. A file may hold a v1beta2
// schema, a v1beta1 params.yaml or an OperatorVersion manifest (whose
// spec.plans also tell the webhook which plans exist), read by
// kudo.Load.
//
// Each schema is compiled once and kept; a file is looked at again (one
// stat) at most once per DefaultRecheckInterval (SetRecheckInterval
// changes it) and reloaded when it changed (size, modification time or
// identity, so that a ConfigMap's symlink swap counts). A file that no longer loads makes Resolve fail with the
// reason instead of serving the stale schema: replace files atomically
// (write elsewhere, then rename).
type DirResolver struct {
	dir     string
	recheck time.Duration

	mu      sync.RWMutex
	entries map[string]*dirEntry
}

// DefaultRecheckInterval is how often DirResolver looks at a file again.
const DefaultRecheckInterval = time.Second

// maxCachedMisses bounds the entries kept for names without a file, so
// that a flood of made-up names cannot grow the cache without end.
const maxCachedMisses = 4096

// NewDirResolver returns a resolver over dir. It does not read dir yet.
func NewDirResolver(dir string) *DirResolver {
	return &DirResolver{dir: dir, recheck: DefaultRecheckInterval, entries: map[string]*dirEntry{}}
}

// SetRecheckInterval changes how often a file is looked at again (zero:
// on every Resolve). Call it before the resolver is used.
func (r *DirResolver) SetRecheckInterval(d time.Duration) { r.recheck = d }

type dirEntry struct {
	mu    sync.Mutex // serialises reloads of this name
	state atomic.Pointer[dirState]
}

// dirState is one immutable answer for a name.
type dirState struct {
	checked time.Time
	info    os.FileInfo // of the file loaded; nil when none
	path    string      // of the file loaded
	ov      *kudo.OperatorVersion
	err     error
}

// Resolve returns the schema of the named operator version. The
// namespace is not used: the directory is shared by all namespaces.
func (r *DirResolver) Resolve(_ context.Context, _, name string) (*kudo.OperatorVersion, error) {
	if err := checkName(name); err != nil {
		return nil, &NotFoundError{Name: name, Reason: err.Error()}
	}
	r.mu.RLock()
	e := r.entries[name]
	r.mu.RUnlock()
	if e == nil {
		r.mu.Lock()
		if e = r.entries[name]; e == nil {
			e = &dirEntry{}
			r.entries[name] = e
		}
		r.mu.Unlock()
	}
	if st := e.state.Load(); st != nil && time.Since(st.checked) < r.recheck {
		return st.ov, st.err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if st := e.state.Load(); st != nil && time.Since(st.checked) < r.recheck {
		return st.ov, st.err
	}
	st := r.load(name, e.state.Load())
	e.state.Store(st)
	if errors.Is(st.err, ErrSchemaNotFound) {
		r.forgetMisses()
	}
	return st.ov, st.err
}

// load looks at the files for name and reloads when they changed.
func (r *DirResolver) load(name string, prev *dirState) *dirState {
	now := time.Now()
	candidates := []string{filepath.Join(r.dir, name+".yaml"), filepath.Join(r.dir, name+".json")}
	var found []string
	var infos []os.FileInfo
	for _, c := range candidates {
		fi, err := os.Stat(c)
		if err == nil && fi.Mode().IsRegular() {
			found = append(found, c)
			infos = append(infos, fi)
		}
	}
	switch len(found) {
	case 0:
		return &dirState{checked: now, err: &NotFoundError{Name: name, Looked: candidates}}
	case 2:
		return &dirState{checked: now, err: fmt.Errorf("operator version %q has two schema files, %s and %s: keep one", name, found[0], found[1])}
	}
	path, fi := found[0], infos[0]
	if prev != nil && prev.info != nil && sameFile(prev.info, fi) && prev.path == path {
		return &dirState{checked: now, info: prev.info, path: path, ov: prev.ov, err: prev.err}
	}
	data, err := readFileBounded(path)
	if err != nil {
		return &dirState{checked: now, err: fmt.Errorf("operator version %q: %w", name, err)}
	}
	if err := schema.CheckJSONFile(path, data); err != nil {
		// NAME.json is JSON only, as every other reader of it takes it.
		return &dirState{checked: now, info: fi, path: path, err: fmt.Errorf("operator version %q: schema file %s: %w", name, path, err)}
	}
	ov, err := kudo.Load(name, data)
	if err != nil {
		return &dirState{checked: now, info: fi, path: path, err: fmt.Errorf("operator version %q: schema file %s: %w", name, path, err)}
	}
	return &dirState{checked: now, info: fi, path: path, ov: ov}
}

// LoadAll loads every NAME.yaml and NAME.json in the directory now, so
// that a server can refuse to start with a schema it could not use. It
// returns the operator versions that loaded and one error naming every
// file that did not; when ctx ends first, that error holds ctx's error.
func (r *DirResolver) LoadAll(ctx context.Context) ([]*kudo.OperatorVersion, error) {
	entries, err := os.ReadDir(r.dir)
	if err != nil {
		return nil, err
	}
	var out []*kudo.OperatorVersion
	var errs []error
	seen := map[string]bool{}
	for _, de := range entries {
		if err := ctx.Err(); err != nil {
			return out, errors.Join(append(errs, err)...)
		}
		ext := filepath.Ext(de.Name())
		if de.IsDir() || (ext != ".yaml" && ext != ".json") {
			continue
		}
		name := strings.TrimSuffix(de.Name(), ext)
		if seen[name] {
			continue
		}
		seen[name] = true
		if checkName(name) != nil {
			errs = append(errs, fmt.Errorf("%s: %q is not a Kubernetes object name, so no Instance can refer to it", filepath.Join(r.dir, de.Name()), name))
			continue
		}
		ov, err := r.Resolve(ctx, "", name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, ov)
	}
	return out, errors.Join(errs...)
}

func sameFile(a, b os.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// forgetMisses drops the cached misses once there are too many.
func (r *DirResolver) forgetMisses() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.entries) <= maxCachedMisses {
		return
	}
	for k, e := range r.entries {
		if st := e.state.Load(); st != nil && errors.Is(st.err, ErrSchemaNotFound) {
			delete(r.entries, k)
		}
	}
}

// checkName accepts Kubernetes object names (DNS subdomains), which also
// keeps a name from reaching outside the directory.
func checkName(name string) error {
	if name == "" {
		return errors.New("the name is empty")
	}
	if len(name) > 253 {
		return fmt.Errorf("the name is %d characters long; Kubernetes names have at most 253", len(name))
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
		if alnum || ((c == '-' || c == '.') && i > 0 && i < len(name)-1) {
			continue
		}
		return fmt.Errorf("%q is not a valid Kubernetes object name (lower-case letters, digits, '-' and '.', starting and ending with a letter or digit)", name)
	}
	return nil
}
