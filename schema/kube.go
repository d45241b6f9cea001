package schema

import (
	"context"
	"strings"

	"github.com/paramkit/paramkit/internal/kcel"
	"github.com/paramkit/paramkit/internal/pointer"
)

// Kubernetes marks the schema as a Kubernetes structural schema (a CRD
// version's openAPIV3Schema): its formats are then checked as
// kube-apiserver checks them (int32 and int64 ranges, byte as base64,
// date-time, duration as Go and Scala durations, k8s-short-name, …)
// instead of as JSON Schema's format vocabulary. A schema that carries
// any x-kubernetes-* keyword is marked without the option.
func Kubernetes() Option { return func(c *config) { c.kubernetes = true } }

// KubernetesObject marks the schema as a CustomResourceDefinition
// version's openAPIV3Schema that judges whole objects (Kubernetes()
// included): its root is the object's root, where kube-apiserver
// compiles x-kubernetes-validations rules with apiVersion, kind,
// metadata.name and metadata.generateName visible whether or not the
// schema declares them (and nothing else of metadata). Without it, a
// rule at the root sees only what the schema declares, as for a value
// that is not an object (a CRD's spec, paramkit's parameters).
func KubernetesObject() Option { return func(c *config) { c.object = true } }

// kubeChecks are the Kubernetes extensions of a schema: its
// x-kubernetes-validations rules compiled, list types and formats.
type kubeChecks struct {
	root    *kcel.Node
	rules   *kcel.Validator
	formats bool
	lists   bool
}

// kubeOf builds the schema's Kubernetes checks on first use; nil when
// the schema has none.
func (s *Schema) kubeOf() *kubeChecks {
	s.kubeOnce.Do(func() {
		marked, lists := scanKube(s.doc, 0)
		marked = marked || s.kubeMarked
		if !marked {
			return
		}
		root := kcel.Read(s.doc, "")
		s.kube = &kubeChecks{root: root, rules: kcel.Compile(root, s.kubeObject), formats: true, lists: lists}
	})
	return s.kube
}

// scanKube reports whether a schema document carries any x-kubernetes-*
// keyword, and whether any of them is a list type.
func scanKube(v any, depth int) (kube, lists bool) {
	if depth > 200 {
		return false, false
	}
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			if strings.HasPrefix(k, "x-kubernetes-") {
				kube = true
				if k == "x-kubernetes-list-type" {
					lists = true
				}
			}
			ck, cl := scanKube(c, depth+1)
			kube, lists = kube || ck, lists || cl
		}
	case []any:
		for _, c := range t {
			ck, cl := scanKube(c, depth+1)
			kube, lists = kube || ck, lists || cl
		}
	}
	return kube, lists
}

// errors adds to the engine's errors of v those of the Kubernetes
// extensions: the apiserver's formats (which replace the engine's format
// errors), list types and x-kubernetes-validations rules (transition
// rules only when hasOld).
func (k *kubeChecks) errors(s *Schema, engine ErrorList, v, old any, hasOld bool) ErrorList {
	// On an update of an object, errors of a value left as it was are
	// not reported (the apiserver's validation ratcheting).
	var ratchet *kcel.Ratchet
	if hasOld && old != nil {
		ratchet = kcel.NewRatchet(k.root, v, old)
	}
	schemaRatchet := ratchet
	if !s.kubeObject {
		schemaRatchet = nil // only x-kubernetes-validations ratchet in a value
	}
	var out ErrorList
	for _, e := range engine {
		if k.formats && e.Keyword == "format" {
			continue // the apiserver's formats are checked below
		}
		if schemaRatchet.Drops(raisedAt(e.Pointer, e.Keyword)) {
			continue
		}
		out = append(out, e)
	}
	var problems []kcel.Problem
	if k.formats || k.lists {
		lists := k.lists
		if lists && schemaRatchet != nil && len(kcel.CheckValue(k.root, old, kcel.CheckOptions{})) > 0 {
			// As the apiserver: list types are not checked on an update
			// whose old object breaks them.
			lists = false
		}
		for _, p := range kcel.CheckValue(k.root, v, kcel.CheckOptions{Formats: k.formats, Quote: quoteValue, Hidden: s.HoldsSecretAt}) {
			if p.Keyword == "format" {
				if schemaRatchet.Drops(p.Pointer) {
					continue
				}
				out = append(out, k.problemError(p))
				continue
			}
			if lists {
				problems = append(problems, p)
			}
		}
	}
	if k.rules != nil && blocking(s, out, v) {
		// As the apiserver: a value already refused for its shape is not
		// given to the rules, which would only fail on it (a string where
		// a rule reads an int); one error says the rules did not run.
		out = append(out, &Error{Kind: KindInvalid, Keyword: "x-kubernetes-validations",
			Message: kcel.RulesNotChecked})
	} else {
		problems = append(problems, k.rules.Validate(context.Background(), v, old, hasOld, s.HoldsSecretAt, ratchet)...)
	}
	for _, p := range problems {
		out = append(out, k.problemError(p))
	}
	if len(out) == 0 {
		return nil
	}
	return dedupe(sortErrors(out))
}

func (k *kubeChecks) problemError(p kcel.Problem) *Error {
	e := &Error{Pointer: p.Pointer, Kind: kindOfProblem(p.Kind), Keyword: p.Keyword, Message: p.Message}
	var subs []int
	if p.Keyword == "x-kubernetes-validations" {
		subs = mapKeys(k.root, p.Pointer)
	}
	if p.SchemaPointer != "" || subs != nil {
		e.Detail = &ErrorDetail{SchemaPointer: p.SchemaPointer, Subscripts: subs}
	}
	return e
}

// mapKeys are the indexes of ptr's tokens that are keys of a map
// (additionalProperties) under root: the apiserver names a rule's error
// below one with a subscript (field.Path's Key).
func mapKeys(root *kcel.Node, ptr string) []int {
	toks, err := pointer.Split(ptr)
	if err != nil {
		return nil
	}
	var out []int
	n := root
	for i, t := range toks {
		switch {
		case n == nil:
			return out
		case n.Prop(t) != nil:
			n = n.Prop(t)
		case n.AdditionalNode() != nil:
			out = append(out, i)
			n = n.AdditionalNode()
		default:
			n = n.ItemsNode()
		}
	}
	return out
}

// raisedAt is the pointer of the schema node that raises an error at ptr
// for keyword: a missing required property is the object's error.
func raisedAt(ptr, keyword string) string {
	if keyword == "required" {
		if i := strings.LastIndexByte(ptr, '/'); i >= 0 {
			return ptr[:i]
		}
	}
	return ptr
}

// blocking reports whether errors hold one that keeps kube-apiserver from
// running x-kubernetes-validations rules (apiextensions-apiserver's
// hasBlockingErr: a wrong type, a string not of its format, a missing
// required value, a value outside an enum, too long or too many) in v.
//
// A null where the node is nullable is no error for the apiserver (a
// caller honouring nullable drops it after), so it does not block.
func blocking(s *Schema, l ErrorList, v any) bool {
	for _, e := range l {
		if nullAllowed(s, e.Pointer, v) {
			continue
		}
		switch e.Kind {
		case KindType, KindRequired, KindEnum:
			return true
		case KindInvalid:
			switch e.Keyword {
			case "maxLength", "maxItems", "maxProperties":
				return true
			case "format":
				// A string's format is a type error to the apiserver (an
				// integer out of its format's range is not).
				if x, ok := pointer.Get(v, e.Pointer); ok {
					if _, isString := x.(string); isString {
						return true
					}
				}
			}
		}
	}
	return false
}

// nullAllowed reports whether v holds null at ptr where the schema's
// node says nullable: true.
func nullAllowed(s *Schema, ptr string, v any) bool {
	if x, found := pointer.Get(v, ptr); !found || x != nil {
		return false
	}
	n := s.Lookup(ptr)
	if n == nil {
		return false
	}
	for _, sc := range n.Scope() {
		if sc.Nullable() {
			return true
		}
	}
	return false
}

func quoteValue(v any) string {
	if t := scalarText(v); t != "" {
		return t
	}
	return jsonText(v)
}

func kindOfProblem(k string) Kind {
	switch k {
	case kcel.KindRequired:
		return KindRequired
	case kcel.KindForbidden:
		return KindForbidden
	case kcel.KindDuplicate:
		return KindDuplicate
	case kcel.KindSchema:
		return KindSchema
	}
	return KindInvalid
}

// ValidateUpdate checks a new value against the schema as Validate does,
// and also runs the x-kubernetes-validations transition rules (those
// naming oldSelf) with old as the value before the update, as
// kube-apiserver does on an update: a rule runs where its node has a
// value in both (list items correlated by x-kubernetes-list-map-keys,
// map entries by key), and a rule that fails on a value left unchanged
// is not reported (the apiserver's ratcheting). For a schema read with
// KubernetesObject, schema errors ratchet too, as on the apiserver: an
// error of a value equal to its old one (or to the old value of its
// nearest ancestor that correlates: list items correlate only in a
// list-type map) is not reported, a ratcheted error does not keep the
// rules from running, and list types are not checked when the old object
// breaks them. Validate runs no transition rule: it judges a value that
// has no old one (a create).
func (s *Schema) ValidateUpdate(v, old any) error {
	if !s.compiledOK() {
		return ErrorList{errNotCompiled()}.Err()
	}
	return s.validate(v, old, true)
}

// CheckRules compiles every x-kubernetes-validations rule of a schema
// document (plain values, as FromValue takes them) as kube-apiserver
// v1.37 does when a CustomResourceDefinition with the document as a
// version's openAPIV3Schema is created: in the environment for new
// expressions, with self typed from the structural schema (apiVersion,
// kind and metadata.name visible at the root), each rule a bool and each
// messageExpression a string, and the estimated cost of each (times how
// often it may run) and of all together within the apiserver's budgets.
// Each Error points into doc, below at (the document's own pointer in a
// larger one, "" for none), at the rule's "rule" or "messageExpression":
// KindSchema for what does not compile, KindForbidden for a cost over
// the budget, in the apiserver's words. The list is nil when every rule
// compiles. Keys of doc the apiserver would refuse otherwise are not
// checked here (lint's structural set does that).
func CheckRules(doc any, at string) ErrorList {
	var out ErrorList
	for _, p := range kcel.Check(kcel.Read(doc, at)) {
		e := &Error{Pointer: p.Pointer, Kind: kindOfProblem(p.Kind), Keyword: p.Keyword, Message: p.Message}
		out = append(out, e)
	}
	return out
}
