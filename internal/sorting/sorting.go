// Package sorting sorts slices through pointers to their elements, so
// that every element type shares one compiled copy of the sort.
//
// slices.SortFunc and slices.SortStableFunc are compiled once for each
// shape of element, which for a struct is in effect each struct type:
// 8 to 11 kilobytes of the binary a type. Every pointer type has one
// shape, so a sort of pointers is compiled once for all.
//
// The order is the one slices.SortFunc or slices.SortStableFunc gives on
// the elements themselves: both decide every move by comparisons and
// positions alone, so pointers to the elements are moved as the elements
// would be, ties included. Use it off the hot paths: it allocates two
// slices and compares through the pointers.
package sorting

import "slices"

// Sort sorts s as slices.SortFunc(s, cmp) does.
func Sort[S ~[]E, E any](s S, cmp func(a, b E) int) {
	p := pointers(s)
	slices.SortFunc(p, func(a, b *E) int { return cmp(*a, *b) })
	permute(s, p)
}

// Stable sorts s as slices.SortStableFunc(s, cmp) does.
func Stable[S ~[]E, E any](s S, cmp func(a, b E) int) {
	p := pointers(s)
	slices.SortStableFunc(p, func(a, b *E) int { return cmp(*a, *b) })
	permute(s, p)
}

func pointers[E any](s []E) []*E {
	p := make([]*E, len(s))
	for i := range s {
		p[i] = &s[i]
	}
	return p
}

// permute puts the elements p points to into s in p's order.
func permute[E any](s []E, p []*E) {
	out := make([]E, len(p))
	for i, e := range p {
		out[i] = *e
	}
	copy(s, out)
}
