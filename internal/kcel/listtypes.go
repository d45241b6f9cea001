package kcel

// Adapted from k8s.io/apiserver/pkg/cel/common (Apache License 2.0, the Kubernetes Authors).

import (
	"fmt"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"reflect"
)

func addToMapList(elements []ref.Val, other traits.Lister, escapedKeyProps []string) ref.Val {
	keyToIdx := make(map[interface{}]int, len(elements))
	for i, e := range elements {
		keyToIdx[refValMapKey(e, escapedKeyProps)] = i
	}
	for it := other.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := refValMapKey(v, escapedKeyProps)
		if overwritePosition, ok := keyToIdx[k]; ok {
			elements[overwritePosition] = v
		} else {
			elements = append(elements, v)
		}
	}
	return &refValMapList{
		Lister:          types.NewRefValList(types.DefaultTypeAdapter, elements),
		escapedKeyProps: escapedKeyProps,
	}
}

// refValMapKey returns a valid golang map key for the given element of a map list.
// escapedKeyProps must contain the escaped CEL identifiers of the keys.
func refValMapKey(element ref.Val, escapedKeyProps []string) interface{} {
	get := func(escapedProp string) interface{} {
		key := types.String(escapedProp)
		var v ref.Val
		var found bool
		switch e := element.(type) {
		case traits.Mapper:
			v, found = e.Find(key)
		case traits.Indexer:
			if tester, ok := element.(traits.FieldTester); ok {
				found = tester.IsSet(key) == types.True
			}
			if found {
				v = e.Get(key)
			}
		}
		if !found || v == nil || types.IsUnknownOrError(v) {
			return nil
		}
		raw := v.Value()
		if raw != nil && !reflect.TypeOf(raw).Comparable() {
			// %#v includes type information and quotes strings, so the
			// serialized form cannot collide with a comparable raw value.
			return fmt.Sprintf("%#v", raw)
		}
		return raw
	}

	if len(escapedKeyProps) == 1 {
		return get(escapedKeyProps[0])
	}
	if len(escapedKeyProps) == 2 {
		return [2]interface{}{get(escapedKeyProps[0]), get(escapedKeyProps[1])}
	}
	if len(escapedKeyProps) == 3 {
		return [3]interface{}{get(escapedKeyProps[0]), get(escapedKeyProps[1]), get(escapedKeyProps[2])}
	}

	key := make([]interface{}, len(escapedKeyProps))
	for i, kf := range escapedKeyProps {
		key[i] = get(kf)
	}
	// Serialize to a string for more than 3 keys. %#v quotes strings.
	return fmt.Sprintf("%#v", key)
}

type refValMapList struct {
	traits.Lister
	escapedKeyProps []string
}

func (l *refValMapList) Add(other ref.Val) ref.Val {
	oMapList, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz, _ := l.Size().(types.Int)
	elements := make([]ref.Val, int(sz))
	for i := range types.Int(sz) {
		elements[i] = l.Get(i)
	}
	return addToMapList(elements, oMapList, l.escapedKeyProps)
}

func (l *refValMapList) Equal(other ref.Val) ref.Val {
	oMapList, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz, _ := l.Size().(types.Int)
	if sz != oMapList.Size() {
		return types.False
	}
	keyToElement := make(map[interface{}]ref.Val, int(sz))
	for i := range types.Int(sz) {
		e := l.Get(i)
		keyToElement[refValMapKey(e, l.escapedKeyProps)] = e
	}
	seen := make(map[interface{}]struct{}, int(sz))
	for it := oMapList.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := refValMapKey(v, l.escapedKeyProps)
		e, ok := keyToElement[k]
		if !ok {
			return types.False
		}
		eq := e.Equal(v)
		if eq != types.True {
			return eq
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(keyToElement))
}

func addToSetList(elements []ref.Val, other traits.Lister) ref.Val {
	set := make(map[interface{}]struct{}, len(elements))
	for _, e := range elements {
		k, err := setElementKey(e)
		if err != nil {
			return err
		}
		set[k] = struct{}{}
	}
	for it := other.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k, err := setElementKey(v)
		if err != nil {
			return err
		}
		if _, exists := set[k]; !exists {
			set[k] = struct{}{}
			elements = append(elements, v)
		}
	}
	return &refValSetList{Lister: types.NewRefValList(types.DefaultTypeAdapter, elements)}
}

// setElementKey returns a valid golang map key for the given element of a set list.
// Set elements are expected to be scalars; if the element is a non-scalar an error is returned.
func setElementKey(element ref.Val) (value interface{}, err ref.Val) {
	switch element.(type) {
	case traits.Lister, traits.Mapper:
		return nil, types.NewErr("listSet operations are only supported on lists of scalar values")
	}
	raw := element.Value()
	if raw != nil && !reflect.TypeOf(raw).Comparable() {
		// %#v includes type information and quotes strings, so the
		// serialized form cannot collide with a comparable raw value.
		return fmt.Sprintf("%#v", raw), nil
	}
	return raw, nil
}

type refValSetList struct {
	traits.Lister
}

func (l *refValSetList) Add(other ref.Val) ref.Val {
	oSetList, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz, _ := l.Size().(types.Int)
	elements := make([]ref.Val, int(sz))
	for i := range sz {
		elements[i] = l.Get(i)
	}
	return addToSetList(elements, oSetList)
}

// Equal on a set list ignores list element order.
func (l *refValSetList) Equal(other ref.Val) ref.Val {
	oSetList, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	sz, _ := l.Size().(types.Int)
	if sz != oSetList.Size() {
		return types.False
	}
	set := make(map[interface{}]struct{}, int(sz))
	for i := range sz {
		k, err := setElementKey(l.Get(i))
		if err != nil {
			return err
		}
		set[k] = struct{}{}
	}
	seen := make(map[interface{}]struct{}, len(set))
	for it := oSetList.Iterator(); it.HasNext() == types.True; {
		k, err := setElementKey(it.Next())
		if err != nil {
			return err
		}
		if _, exists := set[k]; !exists {
			return types.False
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(set))
}
