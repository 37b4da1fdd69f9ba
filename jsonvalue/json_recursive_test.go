package jsonvalue

// The parser as it was before it became one loop (issue 33, sixth
// round): value, object and array calling one another for every nested
// container. It shares everything else with the parser (strings,
// numbers, literals, the slab and its levels) and is kept as the oracle
// the loop must agree with exactly, in values and errors and in what it
// leaves in the slab and the levels (TestLoopAgreesWithRecursive,
// FuzzLoopAgreesWithRecursive).

import "math/bits"

// level returns the level of depth, making the levels up to it.
func (p *parser) level(depth int) *level {
	for len(p.levels) <= depth {
		p.levels = append(p.levels, &level{slab: &p.slab})
	}
	return p.levels[depth]
}

func (p *parser) recursiveDocument() (any, error) {
	d := p.data
	if p.slab.begin(len(d)) {
		p.newGeneration()
	}
	v, i, err := p.recursiveValue(skipSpace(d, 0), 0)
	if err == nil {
		if i = skipSpace(d, i); i < len(d) {
			err = p.errorf(i, "unexpected %s after the value", p.describe(i))
		}
	}
	if p.slab.budget == 0 {
		// A document of genInput or more fills its generation alone: let
		// it go now rather than keep it alive from the pool.
		p.slab = slab{}
		p.newGeneration()
	}
	if len(p.levels) > maxPooledLevels {
		p.levels = p.levels[:maxPooledLevels:maxPooledLevels]
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// value reads the value at offset i and returns it with the offset after it.
func (p *parser) recursiveValue(i, depth int) (any, int, error) {
	d := p.data
	if depth > MaxDepth {
		return nil, i, p.errorf(i, "nesting deeper than %d", MaxDepth)
	}
	if i >= len(d) {
		return nil, i, p.errorf(i, "unexpected end of input, want a value")
	}
	switch c := d[i]; c {
	case '{':
		return p.recursiveObject(i, depth)
	case '[':
		return p.recursiveArray(i, depth)
	case '"':
		s, j, err := p.string(i, i+1)
		if err != nil {
			return nil, j, err
		}
		return p.slab.string(s, len(d)-j), j, nil
	case 't':
		j, err := p.literal(i, "true")
		return true, j, err
	case 'f':
		j, err := p.literal(i, "false")
		return false, j, err
	case 'n':
		j, err := p.literal(i, "null")
		return nil, j, err
	default:
		if c == '-' || c >= '0' && c <= '9' {
			return p.number(i)
		}
		return nil, i, p.errorf(i, "unexpected %s, want a value", p.describe(i))
	}
}

func (p *parser) recursiveObject(i, depth int) (any, int, error) {
	d := p.data
	i = skipSpace(d, i+1) // past {
	if uint(i) < uint(len(d)) && d[i] == '}' {
		return emptyObject, i + 1, nil
	}
	var lv *level
	if depth < len(p.levels) {
		lv = p.levels[depth]
	} else {
		lv = p.level(depth)
	}
	base := len(lv.members)
	if lv.index != nil {
		lv.index = nil // left by an object that failed
	}
	var seen uint64 // a bit per key hash: a repeat finds its bit set
	for {
		// Compact input has no space between tokens: each token is tested
		// for first, and space skipped only when it is not there.
		if uint(i) >= uint(len(d)) || d[i] != '"' {
			if i = skipSpace(d, i); uint(i) >= uint(len(d)) || d[i] != '"' {
				return nil, i, p.errorf(i, "unexpected %s, want a string key", p.describe(i))
			}
		}
		keyAt := i
		// Keys and string values are scanned here rather than by calls to
		// string and plainRun: a call costs the loop its registers (Go's
		// calls save none). The scan stops at the first byte that is not
		// plain text; anything but the closing quote goes on in string.
		j := i + 1
		for j+8 <= len(d) {
			if m := scanStops(wordAt(d, j)); m != 0 {
				j += bits.TrailingZeros64(m) >> 3
				break
			}
			j += 8
		}
		var key string
		if uint(j) < uint(len(d)) && d[j] == '"' {
			key, j = sub(d, i+1, j), j+1
		} else {
			var err error
			if key, j, err = p.string(i, j); err != nil {
				return nil, j, err
			}
		}
		// A key whose bit is new is new. Otherwise it is compared with the
		// keys before it, or, in an object of indexFrom members or more,
		// looked up in an index made at the first such key (and from then
		// on every bit is set, so that each key is).
		if bit := keyBit(key); seen&bit == 0 {
			seen |= bit
		} else {
			if lv.index == nil && len(lv.members)-base >= indexFrom {
				lv.index = make(map[string]struct{}, 2*(len(lv.members)-base))
				for _, m := range lv.members[base:] {
					lv.index[m.Key] = struct{}{}
				}
				seen = ^uint64(0)
			}
			if index := lv.index; index != nil {
				if _, ok := index[key]; ok {
					return nil, keyAt, p.duplicate(keyAt, key)
				}
				index[key] = struct{}{}
			} else if Object(lv.members[base:]).index(key) >= 0 {
				return nil, keyAt, p.duplicate(keyAt, key)
			}
		}
		if uint(j) >= uint(len(d)) || d[j] != ':' {
			if j = skipSpace(d, j); uint(j) >= uint(len(d)) || d[j] != ':' {
				return nil, j, p.errorf(j, "unexpected %s after object key, want ':'", p.describe(j))
			}
		}
		// The value's first byte is read once, space skipped only if it is
		// space. Most values are strings: those are read here, without the
		// call to value.
		var v any
		var err error
		c := byte(0)
		if j++; uint(j) < uint(len(d)) {
			if c = d[j]; c <= ' ' {
				j, c = skipSpace(d, j), 0
				if uint(j) < uint(len(d)) {
					c = d[j]
				}
			}
		}
		if depth >= MaxDepth {
			c = 0 // for value to refuse
		}
		if c == '"' {
			k := j + 1 // as for the key
			for k+8 <= len(d) {
				if m := scanStops(wordAt(d, k)); m != 0 {
					k += bits.TrailingZeros64(m) >> 3
					break
				}
				k += 8
			}
			var s string
			if uint(k) < uint(len(d)) && d[k] == '"' {
				s, k = sub(d, j+1, k), k+1
			} else if s, k, err = p.string(j, k); err != nil {
				return nil, k, err
			}
			v = p.slab.string(s, len(d)-k)
			j = k
		} else {
			// Containers and numbers are read without the call to value too.
			switch c {
			case '{':
				v, j, err = p.recursiveObject(j, depth+1)
			case '[':
				v, j, err = p.recursiveArray(j, depth+1)
			case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				v, j, err = p.number(j)
			case 't', 'f', 'n':
				if w, k := literalAt(d, j); k > j {
					v, j = w, k
					break
				}
				v, j, err = p.recursiveValue(j, depth+1)
			default:
				v, j, err = p.recursiveValue(j, depth+1)
			}
			if err != nil {
				return nil, j, err
			}
		}
		ms := lv.members
		if len(ms) == cap(ms) {
			base = lv.moveMembers(base)
			ms = lv.members
		}
		ms = ms[:len(ms)+1]
		ms[len(ms)-1] = Member{key, v}
		lv.members = ms
		// The next member's comma, in compact input, goes straight back.
		if uint(j) < uint(len(d)) && d[j] == ',' {
			i = j + 1 // the loop's top skips space before the key
			continue
		}
		if c = 0; uint(j) < uint(len(d)) {
			if c = d[j]; c <= ' ' {
				j, c = skipSpace(d, j), 0
				if uint(j) < uint(len(d)) {
					c = d[j]
				}
			}
		}
		if c == ',' {
			i = j + 1 // the loop's top skips space before the key
			continue
		}
		if c == '}' {
			i = j + 1
			if lv.index != nil {
				lv.index = nil
			}
			n := len(lv.members)
			obj := Object(lv.members[base:n:n])
			return p.slab.object(obj, len(d)-i), i, nil
		}
		if uint(j) >= uint(len(d)) {
			return nil, j, p.errorf(j, "unexpected end of input in object")
		}
		return nil, j, p.errorf(j, "unexpected %s in object, want ',' or '}'", p.describe(j))
	}
}

func (p *parser) recursiveArray(i, depth int) (any, int, error) {
	d := p.data
	i = skipSpace(d, i+1) // past [
	if uint(i) < uint(len(d)) && d[i] == ']' {
		return emptyArray, i + 1, nil
	}
	var lv *level
	if depth < len(p.levels) {
		lv = p.levels[depth]
	} else {
		lv = p.level(depth)
	}
	base := len(lv.elems)
	for {
		var v any
		var j int
		var err error
		c := byte(0) // as in object
		if uint(i) < uint(len(d)) {
			if c = d[i]; c <= ' ' {
				i, c = skipSpace(d, i), 0
				if uint(i) < uint(len(d)) {
					c = d[i]
				}
			}
		}
		if depth >= MaxDepth {
			c = 0
		}
		if c == '"' {
			j = i + 1
			for j+8 <= len(d) {
				if m := scanStops(wordAt(d, j)); m != 0 {
					j += bits.TrailingZeros64(m) >> 3
					break
				}
				j += 8
			}
			var s string
			if uint(j) < uint(len(d)) && d[j] == '"' {
				s, j = sub(d, i+1, j), j+1
			} else if s, j, err = p.string(i, j); err != nil {
				return nil, j, err
			}
			v = p.slab.string(s, len(d)-j)
		} else {
			switch c {
			case '{':
				v, j, err = p.recursiveObject(i, depth+1)
			case '[':
				v, j, err = p.recursiveArray(i, depth+1)
			case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
				v, j, err = p.number(i)
			case 't', 'f', 'n':
				if v, j = literalAt(d, i); j > i {
					break
				}
				v, j, err = p.recursiveValue(i, depth+1)
			default:
				v, j, err = p.recursiveValue(i, depth+1)
			}
			if err != nil {
				return nil, j, err
			}
		}
		es := lv.elems
		if len(es) == cap(es) {
			base = lv.moveElems(base)
			es = lv.elems
		}
		es = es[:len(es)+1]
		es[len(es)-1] = v
		lv.elems = es
		if c = 0; uint(j) < uint(len(d)) {
			if c = d[j]; c <= ' ' {
				j, c = skipSpace(d, j), 0
				if uint(j) < uint(len(d)) {
					c = d[j]
				}
			}
		}
		if c == ',' {
			i = j + 1 // the loop's top skips space before the element
			continue
		}
		if c == ']' {
			i = j + 1
			n := len(lv.elems)
			arr := lv.elems[base:n:n]
			return p.slab.array(arr, len(d)-i), i, nil
		}
		if uint(j) >= uint(len(d)) {
			return nil, j, p.errorf(j, "unexpected end of input in array")
		}
		return nil, j, p.errorf(j, "unexpected %s in array, want ',' or ']'", p.describe(j))
	}
}
