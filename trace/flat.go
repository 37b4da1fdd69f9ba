package trace

import (
	"cmp"
	"strconv"
	"strings"

	"github.com/toolgrade/toolgrade/internal/sorting"
	"github.com/toolgrade/toolgrade/jsonvalue"
)

// A node is one level of flattened span attributes
// ("llm.input_messages.0.message.role" → 0 → message → role), rebuilt
// into a tree.
type node struct {
	value    any
	keys     []string // children in first-seen order
	children map[string]*node
}

// unflatten rebuilds the attributes under prefix into a tree; nil when
// there are none.
func unflatten(attrs jsonvalue.Object, prefix string) *node {
	var root *node
	for _, m := range attrs {
		rest := m.Key
		if prefix != "" {
			r, ok := strings.CutPrefix(m.Key, prefix)
			if !ok || (r != "" && r[0] != '.') {
				continue
			}
			rest = r
		}
		if root == nil {
			root = &node{}
		}
		n := root
		for seg := range strings.SplitSeq(strings.TrimPrefix(rest, "."), ".") {
			if seg == "" {
				continue
			}
			n = n.add(seg)
		}
		n.value = m.Value
	}
	return root
}

func (n *node) add(key string) *node {
	if c := n.children[key]; c != nil {
		return c
	}
	if n.children == nil {
		n.children = make(map[string]*node)
	}
	c := &node{}
	n.children[key] = c
	n.keys = append(n.keys, key)
	return c
}

// at walks down the path; nil when any step is missing.
func (n *node) at(path ...string) *node {
	for _, p := range path {
		if n == nil {
			return nil
		}
		n = n.children[p]
	}
	return n
}

func (n *node) str(path ...string) string {
	if c := n.at(path...); c != nil {
		s, _ := c.value.(string)
		return s
	}
	return ""
}

// items returns the children with numeric keys, in numeric order.
func (n *node) items() []*node {
	if n == nil {
		return nil
	}
	type item struct {
		i int
		n *node
	}
	var its []item
	for _, k := range n.keys {
		if i, err := strconv.Atoi(k); err == nil {
			its = append(its, item{i, n.children[k]})
		}
	}
	sorting.Stable(its, func(a, b item) int { return cmp.Compare(a.i, b.i) })
	out := make([]*node, len(its))
	for i, it := range its {
		out[i] = it.n
	}
	return out
}

// toValue turns the tree into the value model: numbered children become
// a list, named ones an object.
func (n *node) toValue() any {
	if n == nil {
		return nil
	}
	if len(n.keys) == 0 {
		return n.value
	}
	if items := n.items(); len(items) == len(n.keys) {
		l := make([]any, len(items))
		for i, it := range items {
			l[i] = it.toValue()
		}
		return l
	}
	o := make(jsonvalue.Object, 0, len(n.keys))
	for _, k := range n.keys {
		o = append(o, jsonvalue.Member{Key: k, Value: n.children[k].toValue()})
	}
	return o
}
