package kcel

// Compiling and evaluating x-kubernetes-validations as kube-apiserver
// v1.37 does (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel,
// compilation.go and validation.go, adapted: Apache License 2.0, the
// Kubernetes Authors). Values are paramkit's plain values; places are
// JSON pointers.

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"

	"github.com/paramkit/paramkit/internal/pointer"
)

// RulesNotChecked is the apiserver's error where an error that blocks
// the rules (a wrong type, a missing required value, ...) kept them from
// running; schema and kube both give it.
const RulesNotChecked = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"

// The kinds of Problem.
const (
	KindInvalid   = "invalid"   // FieldValueInvalid
	KindRequired  = "required"  // FieldValueRequired
	KindForbidden = "forbidden" // FieldValueForbidden
	KindDuplicate = "duplicate" // FieldValueDuplicate
	KindSchema    = "schema"    // a rule that does not compile
)

// The apiserver's static cost limits, checked when a CRD is created.
const (
	// StaticEstimatedCostLimit is the largest estimated cost of one rule.
	StaticEstimatedCostLimit = 10000000
	// StaticEstimatedCRDCostLimit is the largest estimated cost of all
	// the rules of a CRD, each multiplied by how often it may run.
	StaticEstimatedCRDCostLimit = 100000000
)

// Problem is one failure: of a value (Pointer into the value) or of a
// rule (Pointer into the schema, from Check).
type Problem struct {
	Pointer string
	Kind    string
	// Keyword is x-kubernetes-validations (or the keyword of a rule
	// problem: rule, messageExpression).
	Keyword string
	// SchemaPointer is the failing rule's pointer in the schema document.
	SchemaPointer string
	Message       string
}

type compiled struct {
	rule        *Rule
	program     cel.Program
	err         string // compile error, "" when compiled
	usesOldSelf bool
	maxCost     uint64
	maxCard     uint64
	msgProgram  cel.Program
	msgErr      string
	msgMaxCost  uint64
	fieldPath   []string // pointer tokens of fieldPath, nil when none
}

// Validator evaluates the rules of a schema and of every node below it.
type Validator struct {
	node           *Node
	rules          []compiled
	envErr         string
	isResourceRoot bool
	items          *Validator
	additional     *Validator
	properties     map[string]*Validator
	allOf          []*Validator
}

// Compile compiles every rule of the tree below root as the apiserver
// does for stored rules (evaluating objects). isResourceRoot says that
// root is a Kubernetes object's root (apiVersion, kind and metadata
// visible). It returns nil when the tree has no rule.
func Compile(root *Node, isResourceRoot bool) *Validator {
	if !root.HasRules() {
		return nil
	}
	return validator(root, root, isResourceRoot, SchemaDeclType(root, isResourceRoot), storedEnv)
}

func validator(vs, ns *Node, isResourceRoot bool, declType *DeclType, kind envKind) *Validator {
	if vs == nil || ns == nil || !vs.HasRules() {
		return nil
	}
	v := &Validator{node: ns, isResourceRoot: isResourceRoot}
	if len(vs.rules) > 0 {
		v.rules, v.envErr = compileRules(ns, vs.rules, declType, kind)
	}
	var elemType *DeclType
	if declType != nil {
		elemType = declType.ElemType
	}
	if vs.items != nil && ns.items != nil {
		v.items = validator(vs.items, ns.items, ns.items.embedded, elemType, kind)
	}
	for k, vp := range vs.props {
		np, ok := ns.props[k]
		if !ok {
			continue
		}
		var fieldType *DeclType
		if esc, ok := Escape(k); ok {
			if declType == nil {
				continue
			}
			f, ok := declType.Fields[esc]
			if !ok {
				continue
			}
			fieldType = f.Type
		} else {
			fieldType = SchemaDeclType(np, np.embedded)
			if fieldType == nil {
				continue
			}
		}
		if p := validator(vp, np, np.embedded, fieldType, kind); p != nil {
			if v.properties == nil {
				v.properties = map[string]*Validator{}
			}
			v.properties[k] = p
		}
	}
	if va, na := vs.AdditionalNode(), ns.AdditionalNode(); va != nil && na != nil {
		v.additional = validator(va, na, na.embedded, elemType, kind)
	}
	for _, a := range vs.allOf {
		// The rules of allOf are judged with the node's own type; what is
		// below the allOf entry is judged with the node's structure.
		if len(a.rules) > 0 {
			sub := &Validator{node: ns, isResourceRoot: isResourceRoot}
			sub.rules, sub.envErr = compileRules(ns, a.rules, declType, kind)
			v.allOf = append(v.allOf, sub)
		}
		if below := validator(stripRules(a), ns, isResourceRoot, declType, kind); below != nil {
			v.allOf = append(v.allOf, below)
		}
	}
	if len(v.rules) == 0 && v.envErr == "" && v.items == nil && v.additional == nil && len(v.properties) == 0 && len(v.allOf) == 0 {
		return nil
	}
	return v
}

func stripRules(n *Node) *Node {
	c := *n
	c.rules = nil
	return &c
}

func compileRules(ns *Node, rules []*Rule, declType *DeclType, kind envKind) ([]compiled, string) {
	if declType == nil {
		return nil, "failed to convert to declType for CEL validation rules"
	}
	if ns.embedded {
		declType = SchemaDeclType(ns.WithTypeAndObjectMeta(), false)
	}
	plain, optional, err := ruleEnvs(kind, declType)
	if err != nil {
		return nil, err.Error()
	}
	estimator := &CostEstimator{SizeEstimator: &sizeEstimator{root: declType}}
	maxCard := maxCardinality(declType.MinSerializedSize)
	out := make([]compiled, len(rules))
	for i, r := range rules {
		env := plain
		if r.OptionalOldSelf {
			env = optional
		}
		out[i] = compileRule(ns, r, env, estimator, maxCard)
	}
	return out, ""
}

func compileRule(ns *Node, r *Rule, env *cel.Env, estimator *CostEstimator, maxCard uint64) (c compiled) {
	c.rule = r
	if strings.TrimSpace(r.RuleText) == "" {
		return c
	}
	ast, issues := env.Compile(r.RuleText)
	if issues != nil && issues.Err() != nil {
		c.err = "compilation failed: " + issues.String()
		return c
	}
	if ast.OutputType() != cel.BoolType {
		c.err = "cel expression must evaluate to a bool"
		return c
	}
	checked, err := cel.AstToCheckedExpr(ast)
	if err != nil {
		c.err = "unexpected compilation error: " + err.Error()
		return c
	}
	for _, rf := range checked.ReferenceMap {
		if rf.Name == OldScopedVarName {
			c.usesOldSelf = true
			break
		}
	}
	prog, err := env.Program(ast, append(programOptions(),
		cel.CostLimit(PerCallLimit),
		cel.CostTracking(estimator),
		cel.InterruptCheckFrequency(CheckFrequency))...)
	if err != nil {
		c.err = "program instantiation failed: " + err.Error()
		return c
	}
	est, err := env.EstimateCost(ast, estimator)
	if err != nil {
		c.err = "cost estimation failed: " + err.Error()
		return c
	}
	c.maxCost, c.maxCard, c.program = est.Max, maxCard, prog
	if r.MessageExpr != "" {
		mast, issues := env.Compile(r.MessageExpr)
		switch {
		case issues != nil && issues.Err() != nil:
			c.msgErr = "messageExpression compilation failed: " + issues.String()
		case mast.OutputType() != cel.StringType:
			c.msgErr = "messageExpression must evaluate to a string"
		default:
			mprog, err := env.Program(mast, append(programOptions(),
				cel.CostLimit(PerCallLimit),
				cel.CostTracking(estimator),
				cel.InterruptCheckFrequency(CheckFrequency))...)
			if err != nil {
				c.msgErr = "messageExpression instantiation failed: " + err.Error()
				break
			}
			mest, err := env.EstimateCost(mast, estimator)
			if err != nil {
				c.msgErr = "cost estimation failed for messageExpression: " + err.Error()
				break
			}
			c.msgProgram, c.msgMaxCost = mprog, mest.Max
		}
	}
	if r.FieldPathText != "" {
		if toks, err := ValidFieldPath(r.FieldPathText, ns); err == nil {
			c.fieldPath = toks
		}
	}
	return c
}

type sizeEstimator struct{ root *DeclType }

func (c *sizeEstimator) EstimateSize(element checker.AstNode) *checker.SizeEstimate {
	if len(element.Path()) == 0 {
		return nil
	}
	cur := c.root
	for _, name := range element.Path()[1:] {
		switch name {
		case "@items", "@values":
			if cur.ElemType == nil {
				return nil
			}
			cur = cur.ElemType
		case "@keys":
			if cur.KeyType == nil {
				return nil
			}
			cur = cur.KeyType
		default:
			f, ok := cur.Fields[name]
			if !ok || f.Type == nil {
				return nil
			}
			cur = f.Type
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(cur.MaxElements)}
}

func (c *sizeEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	return nil
}

func maxCardinality(minSize int64) uint64 {
	return uint64(MaxRequestSizeBytes / (minSize + 1))
}

// Validate evaluates the rules on obj, with old the value before an
// update (hasOld: an update whose old value exists), within the
// apiserver's runtime budget of one object. It returns the failures in
// the order found.
//
// hidden, when not nil, reports whether the value at a pointer is or may
// hold a secret: a rule on such a value gives its message, never its
// messageExpression (which could quote the value). Nodes marked
// writeOnly or format password (and their ancestors) count without it.
//
// ratchet, when not nil, correlates obj with old for ratcheting: a rule
// that does not read oldSelf and fails on a node that (or whose nearest
// correlatable ancestor) is left as it was is not reported. Without it,
// a failing rule is not reported where its node's value equals its old
// value.
func (v *Validator) Validate(ctx context.Context, obj, old any, hasOld bool, hidden func(ptr string) bool, ratchet *Ratchet) []Problem {
	if v == nil {
		return nil
	}
	if !hasOld {
		old, ratchet = nil, nil
	}
	st := &state{ctx: ctx, budget: RuntimeCELCostBudget, hidden: hidden, ratchet: ratchet}
	v.validate(st, "", obj, old, false)
	return st.out
}

type state struct {
	ctx     context.Context
	budget  int64
	out     []Problem
	hidden  func(string) bool
	ratchet *Ratchet
	// allOfAt, inside an allOf, is the pointer whose equality ratchets
	// the rules ("-": none, below the root's allOf).
	allOfAt *string
}

func (st *state) add(p Problem) { st.out = append(st.out, p) }

// ratchets reports whether a failing rule at ptr is not reported
// (ratcheting): see Validate.
func (st *state) ratchets(ptr string, obj, old any) bool {
	if st.ratchet != nil {
		if st.allOfAt != nil {
			return *st.allOfAt != "-" && st.ratchet.Drops(*st.allOfAt)
		}
		return st.ratchet.Drops(ptr)
	}
	return old != nil && reflect.DeepEqual(obj, old)
}

func (v *Validator) validate(st *state, ptr string, obj, old any, secret bool) {
	if v == nil || obj == nil || st.budget < 0 {
		return
	}
	secret = secret || v.node.secret
	v.expressions(st, ptr, obj, old, secret)
	if st.budget < 0 {
		return
	}
	for _, a := range v.allOf {
		// As the apiserver: the rules of allOf (and below it) ratchet
		// with the node's parent, never with the node itself.
		outer := st.allOfAt
		if outer == nil {
			at := parentPointer(ptr)
			st.allOfAt = &at
		}
		a.validate(st, ptr, obj, old, secret)
		st.allOfAt = outer
		if st.budget < 0 {
			return
		}
	}
	switch o := obj.(type) {
	case []any:
		oldList, _ := old.([]any)
		if v.items == nil {
			return
		}
		correlated := MakeMapList(v.node, oldList)
		for i, e := range o {
			v.items.validate(st, pointer.AppendIndex(ptr, i), e, correlated.Get(e), secret)
			if st.budget < 0 {
				return
			}
		}
	case map[string]any:
		oldMap, _ := old.(map[string]any)
		correlatable := v.node.mapType == "" || v.node.mapType == "granular" || v.node.mapType == "atomic"
		for _, k := range sortedKeys(o) {
			val := o[k]
			var oldV any
			if correlatable && oldMap != nil {
				oldV = oldMap[k]
			}
			if v.additional != nil {
				v.additional.validate(st, pointer.Append(ptr, k), val, oldV, secret)
			}
			if p := v.properties[k]; p != nil {
				p.validate(st, pointer.Append(ptr, k), val, oldV, secret)
			}
			if st.budget < 0 {
				return
			}
		}
	}
}

func (v *Validator) expressions(st *state, ptr string, obj, old any, secret bool) {
	if len(v.rules) == 0 && v.envErr == "" {
		return
	}
	if v.envErr != "" {
		st.add(Problem{Pointer: ptr, Kind: KindSchema, Keyword: "x-kubernetes-validations", Message: "rule compiler initialization error: " + v.envErr})
		return
	}
	if st.budget <= 0 {
		st.add(Problem{Pointer: ptr, Kind: KindInvalid, Keyword: "x-kubernetes-validations", Message: "validation failed due to running out of cost budget, no further validation rules will be run"})
		st.budget = -1
		return
	}
	var sts Schema = v.node
	if v.isResourceRoot || v.node.embedded {
		sts = v.node.WithTypeAndObjectMeta()
	}
	self := UnstructuredToVal(obj, sts)
	act := &activation{self: self}
	optAct := &activation{self: self, hasOldSelf: true, oldSelf: types.OptionalNone}
	if old != nil {
		act.oldSelf, act.hasOldSelf = UnstructuredToVal(old, sts), true
		optAct.oldSelf = types.OptionalOf(act.oldSelf)
	}
	for _, c := range v.rules {
		r := c.rule
		if c.err != "" {
			st.add(Problem{Pointer: ptr, Kind: KindSchema, Keyword: "x-kubernetes-validations", SchemaPointer: r.Ptr, Message: "rule compile error: " + c.err})
			continue
		}
		if c.program == nil {
			continue
		}
		if c.usesOldSelf && old == nil && !r.OptionalOldSelf {
			continue // a transition rule runs only where the old value exists
		}
		ruleAct := act
		if r.OptionalOldSelf {
			ruleAct = optAct
		}
		res, det, err := c.program.ContextEval(st.ctx, ruleAct)
		if det == nil || det.ActualCost() == nil {
			st.add(Problem{Pointer: ptr, Kind: KindInvalid, Keyword: "x-kubernetes-validations", SchemaPointer: r.Ptr, Message: "runtime cost could not be calculated for validation rule: " + ruleErrorString(r) + ", no further validation rules will be run"})
			st.budget = -1
			return
		}
		cost := *det.ActualCost()
		if cost > math.MaxInt64 || int64(cost) > st.budget {
			st.add(Problem{Pointer: ptr, Kind: KindInvalid, Keyword: "x-kubernetes-validations", SchemaPointer: r.Ptr, Message: "validation failed due to running out of cost budget, no further validation rules will be run"})
			st.budget = -1
			return
		}
		st.budget -= int64(cost)
		if err != nil {
			msg := err.Error()
			switch {
			case strings.HasPrefix(msg, "no such overload"):
				st.add(Problem{Pointer: ptr, Kind: KindInvalid, Keyword: "x-kubernetes-validations", SchemaPointer: r.Ptr, Message: fmt.Sprintf("'%v': call arguments did not match a supported operator, function or macro signature for rule: %v", msg, ruleErrorString(r))})
			case strings.HasPrefix(msg, "operation cancelled: actual cost limit exceeded"):
				st.add(Problem{Pointer: ptr, Kind: KindInvalid, Keyword: "x-kubernetes-validations", SchemaPointer: r.Ptr, Message: fmt.Sprintf("'%v': no further validation rules will be run due to call cost exceeds limit for rule: %v", msg, ruleErrorString(r))})
				st.budget = -1
				return
			case st.ctx.Err() != nil:
				st.add(Problem{Pointer: ptr, Kind: KindInvalid, Keyword: "x-kubernetes-validations", SchemaPointer: r.Ptr, Message: st.ctx.Err().Error()})
				st.budget = -1
				return
			default:
				st.add(Problem{Pointer: ptr, Kind: KindInvalid, Keyword: "x-kubernetes-validations", SchemaPointer: r.Ptr, Message: fmt.Sprintf("%v evaluating rule: %v", msg, ruleErrorString(r))})
			}
			continue
		}
		if res == types.True {
			continue
		}
		if !c.usesOldSelf && st.ratchets(ptr, obj, old) {
			continue // ratcheting: an unchanged value keeps passing
		}
		at := ptr
		for _, t := range c.fieldPath {
			at = pointer.Append(at, t)
		}
		detail, ok := "", false
		if c.msgProgram != nil && !secret && !v.node.holdsSecret(0) && (st.hidden == nil || !st.hidden(ptr)) {
			m, err := evalMessage(st, c.msgProgram, act)
			if err == nil {
				detail, ok = m, true
			} else if st.budget < 0 {
				st.add(Problem{Pointer: at, Kind: KindInvalid, Keyword: "x-kubernetes-validations", SchemaPointer: r.Ptr, Message: err.Error()})
				return
			}
		}
		if !ok {
			detail = ruleMessageOrDefault(r)
		}
		kind := KindInvalid
		switch r.Reason {
		case "FieldValueForbidden":
			kind = KindForbidden
		case "FieldValueRequired":
			kind = KindRequired
		case "FieldValueDuplicate":
			kind = KindDuplicate
		}
		st.add(Problem{Pointer: at, Kind: kind, Keyword: "x-kubernetes-validations", SchemaPointer: r.Ptr, Message: detail})
	}
}

// parentPointer is the pointer of ptr's parent, "-" for the root.
func parentPointer(ptr string) string {
	if ptr == "" {
		return "-"
	}
	return ptr[:strings.LastIndexByte(ptr, '/')]
}

func evalMessage(st *state, prog cel.Program, act interpreter.Activation) (string, error) {
	res, det, err := prog.ContextEval(st.ctx, act)
	if det == nil || det.ActualCost() == nil {
		st.budget = -1
		return "", fmt.Errorf("runtime cost could not be calculated for messageExpression")
	}
	cost := *det.ActualCost()
	if cost > math.MaxInt64 || int64(cost) > st.budget {
		st.budget = -1
		return "", fmt.Errorf("messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run")
	}
	if err != nil {
		if strings.HasPrefix(err.Error(), "operation cancelled: actual cost limit exceeded") {
			st.budget = -1
			return "", fmt.Errorf("no further validation rules will be run due to call cost exceeds limit for messageExpression")
		}
		st.budget -= int64(cost)
		return "", err
	}
	st.budget -= int64(cost)
	s, ok := res.Value().(string)
	if !ok {
		return "", fmt.Errorf("messageExpression failed to convert to string")
	}
	s = strings.TrimSpace(s)
	switch {
	case len(s) > MaxEvaluatedMessageExpressionSizeBytes:
		return "", fmt.Errorf("messageExpression beyond allowable length of %d", MaxEvaluatedMessageExpressionSizeBytes)
	case strings.Contains(s, "\n"):
		return "", fmt.Errorf("messageExpression should not contain line breaks")
	case s == "":
		return "", fmt.Errorf("messageExpression should evaluate to a non-empty string")
	}
	return s, nil
}

func ruleMessageOrDefault(r *Rule) string {
	if r.MessageText == "" {
		return "failed rule: " + ruleErrorString(r)
	}
	return strings.TrimSpace(r.MessageText)
}

func ruleErrorString(r *Rule) string {
	if r.MessageText != "" {
		return strings.TrimSpace(r.MessageText)
	}
	return strings.TrimSpace(r.RuleText)
}

type activation struct {
	self, oldSelf ref.Val
	hasOldSelf    bool
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case ScopedVarName:
		return a.self, true
	case OldScopedVarName:
		return a.oldSelf, a.hasOldSelf
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

// ValidFieldPath checks a rule's fieldPath against the node it stands
// on and returns it as JSON pointer tokens.
func ValidFieldPath(jsonPath string, n *Node) ([]string, error) {
	var toks []string
	step := func(name string) error {
		if n == nil {
			return fmt.Errorf("does not refer to a valid field")
		}
		switch {
		case n.props != nil:
			c, ok := n.props[name]
			if !ok {
				return fmt.Errorf("does not refer to a valid field")
			}
			n = c
		case n.addl != nil:
			n = n.addl.schema
		default:
			return fmt.Errorf("does not refer to a valid field")
		}
		toks = append(toks, name)
		return nil
	}
	sc := bufio.NewScanner(strings.NewReader(jsonPath))
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if len(data) > 0 {
			for i := 0; i < len(data); i++ {
				if data[0] == '\'' {
					if i > 0 && data[i] == '\'' && data[i-1] != '\\' {
						return i + 1, data[:i+1], nil
					}
					continue
				}
				switch data[i] {
				case '.', '[', ']':
					if i == 0 {
						return 1, data[:1], nil
					}
					return i, data[:i], nil
				}
			}
			if atEOF {
				return len(data), data, nil
			}
		}
		return 0, nil, nil
	})
	for sc.Scan() {
		switch tok := sc.Text(); tok {
		case "[":
			if !sc.Scan() {
				return nil, fmt.Errorf("unexpected end of JSON path")
			}
			tok = sc.Text()
			if len(tok) < 2 || tok[0] != '\'' || tok[len(tok)-1] != '\'' {
				return nil, fmt.Errorf("expected single quoted string but got %s", tok)
			}
			name, err := unescapeSingleQuote(tok[1 : len(tok)-1])
			if err != nil {
				return nil, fmt.Errorf("invalid string literal: %w", err)
			}
			if err := step(name); err != nil {
				return nil, err
			}
			if !sc.Scan() || sc.Text() != "]" {
				return nil, fmt.Errorf("expected ]")
			}
		case ".":
			if !sc.Scan() {
				return nil, fmt.Errorf("unexpected end of JSON path")
			}
			if err := step(sc.Text()); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("expected [ or . but got: %s", tok)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return toks, nil
}

var unescapeMatcher = regexp.MustCompile(`\\.`)

func unescapeSingleQuote(s string) (string, error) {
	var err error
	out := unescapeMatcher.ReplaceAllStringFunc(s, func(m string) string {
		switch m[1] {
		case 'a':
			return "\a"
		case 'b':
			return "\b"
		case 'f':
			return "\f"
		case 'n':
			return "\n"
		case 'r':
			return "\r"
		case 't':
			return "\t"
		case 'v':
			return "\v"
		case '\'':
			return "'"
		case '\\':
			return "\\"
		}
		err = fmt.Errorf("invalid escape char %s", m)
		return ""
	})
	return out, err
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
