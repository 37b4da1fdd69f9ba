package jsonvalue

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// MaxDepth is the deepest nesting of arrays and objects a document may
// have: toolgrade's one budget of nesting for values, JSON or YAML, so
// that hostile input cannot exhaust the stack.
const MaxDepth = 10000

// A SyntaxError is a JSON syntax error with its byte offset and line.
type SyntaxError struct {
	Msg    string
	Offset int // byte offset of the error in the input
	Line   int // 1-based line of the error in the input
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at line %d, byte %d: %s", e.Line, e.Offset+1, e.Msg)
}

// Parse decodes one JSON value (RFC 8259) into the value model: nil,
// bool, string, [json.Number], []any or [Object]. Object members keep their
// order; numbers keep their spelling. Trailing data other than white space
// is an error, and so are what would make two different documents read as
// one value: a key repeated in an object (which of its values was meant?)
// and text that is not UTF-8 (its bytes have no character to compare). A
// lone surrogate escape ("\ud800"), which JSON allows and which has no
// UTF-8 form, is kept as its WTF-8 bytes, so that it differs from every
// other string, and [AppendString] writes it back as the same escape.
//
// Parse copies data once and the result shares that copy, so data may
// be reused as soon as Parse returns. Values of one document share
// their memory: a string kept from a document keeps the copy alive, and a
// value kept keeps up to about 100 kilobytes of its neighbours, from
// this document and the ones parsed just before and after it (see
// slab.go); clone what is kept from a large document that is otherwise
// dropped.
func Parse(data []byte) (any, error) { return parse(string(data)) }

// ParseString is Parse for text, as tool-call arguments usually are.
// Strings and numbers in the result share memory with s (Go strings are
// immutable, so nothing is copied).
func ParseString(s string) (any, error) { return parse(s) }

func parse(data string) (any, error) {
	p := parsers.Get().(*parser)
	p.data = data
	v, err := p.document()
	p.data = ""
	parsers.Put(p)
	return v, err
}

// parsers keep their slabs and levels between documents (see slab.go).
var parsers = sync.Pool{New: func() any { return new(parser) }}

// A parser reads one document. The members of an object are read
// straight into the chunk of its depth's level, and the elements of an
// array into its level's other chunk (see level in slab.go): the
// containers at one depth are read one after another, so each one's
// entries lie together at the end of its chunk when it ends, and are its
// backing array as they are, without a copy.
//
// The read position is kept in a variable of the loop rather than in
// the parser, so that it stays in a register: this is the innermost loop
// of reading a dataset.
type parser struct {
	data   string
	levels []*level // by depth
	slab   slab     // where values go; shared with the documents before and after

	// The innermost open container's level and an offset, which value
	// keeps here across a call (see resume).
	cur *level
	pos int

	// top is the level above the first, of the document's value: its
	// child is the first.
	top level
}

func (p *parser) document() (any, error) {
	d := p.data
	if p.slab.begin(len(d)) {
		p.newGeneration()
	}
	if rc := p.slab.rec; rc != nil {
		rc.begin()
	}
	var v any
	var err error
	i := skipSpace(d, 0)
	if i < len(d) && (d[i] == '{' || d[i] == '[') {
		v, i, err = p.value(i)
	} else {
		v, i, err = p.scalar(i)
	}
	if err == nil {
		if i = skipSpace(d, i); i < len(d) {
			err = p.errorf(i, "unexpected %s after the value", p.describe(i))
		}
	}
	if p.slab.budget == 0 {
		// A document of genInput or more fills its generation alone: let
		// it go now rather than keep it alive from the pool.
		p.slab.reset(0)
		p.newGeneration()
	}
	if len(p.levels) > maxPooledLevels {
		for _, lv := range p.levels[maxPooledLevels:] {
			lv.drop() // the recycler, if any, holds its chunks
		}
		p.levels = p.levels[:maxPooledLevels:maxPooledLevels]
		p.levels[maxPooledLevels-1].child, p.cur = nil, nil
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

// newGeneration drops the levels' chunks, which the values of the
// slab's last generation keep (see level).
func (p *parser) newGeneration() {
	for _, lv := range p.levels {
		lv.drop()
	}
	if rc := p.slab.rec; rc != nil {
		rc.endGeneration()
	}
}

// maxPooledLevels is the most levels a pooled parser keeps: only a
// document nested deeper uses more.
const maxPooledLevels = 64

// newLevel makes the level below the deepest. It is not inlined:
// value's loop would keep what it holds in registers across the calls it
// makes (see resume).
//
//go:noinline
func (p *parser) newLevel() *level {
	parent := &p.top
	if n := len(p.levels); n > 0 {
		parent = p.levels[n-1]
	}
	lv := &level{slab: &p.slab, parent: parent, depth: parent.depth + 1}
	parent.child = lv
	p.levels = append(p.levels, lv)
	return lv
}

// errorf reports a syntax error at byte offset i.
func (p *parser) errorf(i int, format string, args ...any) error {
	line := 1 + strings.Count(p.data[:min(i, len(p.data))], "\n")
	return &SyntaxError{Msg: fmt.Sprintf(format, args...), Offset: i, Line: line}
}

// unexpected reports what is at offset i, named by describe, as format
// has it: value reports its errors by calls that take nothing it keeps
// but the offset (see resume).
func (p *parser) unexpected(i int, format string) error {
	return p.errorf(i, format, p.describe(i))
}

// tooDeep reports a value at offset i nested deeper than MaxDepth.
func (p *parser) tooDeep(i int) error {
	return p.errorf(i, "nesting deeper than %d", MaxDepth)
}

// describe names what is at offset i, for errors.
func (p *parser) describe(i int) string {
	if i >= len(p.data) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.data[i:])
	return strconv.QuoteRune(r)
}

// skipSpace returns the offset of the first byte at or after i that is not
// JSON white space.
func skipSpace(d string, i int) int {
	// Most calls find no space at all: one comparison decides.
	for uint(i) < uint(len(d)) && d[i] <= ' ' {
		switch d[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// value reads the document's value, an object or an array, at offset i
// and returns it with the offset after it (0 with an error: the error
// has its offset).
//
// It is one loop over the document's tokens, with the containers that
// are open as its stack: the levels up to the depth being read, each
// holding the entries its container has read (see level). Opening a
// container pushes it and closing one pops it, and a value is read by
// the same code whether it is a member's or an element's. A call for
// each container, as value, object and array calling one another had
// it, cost each nested container a call, its frame and the saving and
// restoring of the caller's registers, and each loop its own copy of
// the values' dispatch.
//
// Only the input, the offset, the innermost container's level and the
// value just read, as its two words (see words in slab.go), are kept in
// variables. Each container's state (where
// its entries start, its bits of seen keys, whether it is an object) is
// in its level, which knows its depth and is linked to the levels above
// and below it (a push and a pop are a load each), and the key of the
// member being read is in the member's slot, written before its value
// is read: each of them in a variable cost more than the loads it saved
// (BenchmarkParse, callgrind), as every variable more is moved or saved
// at the joins of the loop's paths.
func (p *parser) value(i int) (any, int, error) {
	d := p.data
	var (
		vt, vp unsafe.Pointer // the value's two words (see eface)
		lv     *level         // the innermost open container's
		c      byte
		j      int
		ok     bool
		err    error
	)
	lv = &p.top
	// A value: its first byte is read once, space skipped only if it is
	// space. Depth needs no test here: a container too deep for its
	// entries is refused when it opens.
readValue:
	c = 0
	if uint(i) < uint(len(d)) {
		if c = d[i]; c <= ' ' {
			i, c = skipSpace(d, i), 0
			if uint(i) < uint(len(d)) {
				c = d[i]
			}
		}
	}
	if c == '"' {
		// Strings, most values, are scanned here rather than by calls to
		// string and plainRun. The scan stops at the first byte that is
		// not plain text; anything but the closing quote goes on in
		// string.
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
		} else {
			p.cur = lv
			if s, j, err = p.string(i, j); err != nil {
				return nil, 0, err
			}
			d, lv = p.resume()
		}
		if vp, ok = p.slab.stringSlot(s); ok {
			vt = stringType
		} else {
			p.pos, p.cur = j, lv
			vt, vp = words(p.slab.string(s, len(d)-j))
			d, lv = p.resume()
			j = p.pos
		}
		i = j
		goto stored
	}
	switch c {
	case '{':
		j = skipSpace(d, i+1)
		if uint(j) < uint(len(d)) && d[j] == '}' {
			vt, vp = words(emptyObject)
			i = j + 1
			if lv == &p.top {
				return box(vt, vp), i, nil
			}
			goto stored
		}
		if lv.child != nil {
			lv = lv.child
		} else {
			p.pos = j
			lv = p.newLevel()
			d, j = p.data, p.pos
		}
		if lv.index != nil {
			lv.index = nil // left by an object that failed
		}
		lv.base, lv.object, lv.seen = len(lv.members), true, 0
		i = j
		if lv.depth > MaxDepth {
			return nil, 0, p.tooDeepMember(i)
		}
		goto readKey
	case '[':
		j = skipSpace(d, i+1)
		if uint(j) < uint(len(d)) && d[j] == ']' {
			vt, vp = words(emptyArray)
			i = j + 1
			if lv == &p.top {
				return box(vt, vp), i, nil
			}
			goto stored
		}
		if lv.child != nil {
			lv = lv.child
		} else {
			p.pos = j
			lv = p.newLevel()
			d, j = p.data, p.pos
		}
		lv.base, lv.object = len(lv.elems), false
		i = j
		if lv.depth > MaxDepth {
			return nil, 0, p.tooDeep(i)
		}
		goto readValue
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		// Numbers are scanned here too; number reads one again for its
		// error.
		j = i
		if c == '-' {
			j++
		}
		if uint(j) < uint(len(d)) && d[j] == '0' {
			j++
		} else if uint(j) < uint(len(d)) && d[j]-'1' < 9 {
			for j++; uint(j) < uint(len(d)) && d[j]-'0' < 10; j++ {
			}
		} else {
			goto badNumber
		}
		if uint(j) < uint(len(d)) && d[j] == '.' {
			if j++; uint(j) >= uint(len(d)) || d[j]-'0' >= 10 {
				goto badNumber
			}
			for j++; uint(j) < uint(len(d)) && d[j]-'0' < 10; j++ {
			}
		}
		if uint(j) < uint(len(d)) && d[j]|0x20 == 'e' {
			if j++; uint(j) < uint(len(d)) && (d[j] == '+' || d[j] == '-') {
				j++
			}
			if uint(j) >= uint(len(d)) || d[j]-'0' >= 10 {
				goto badNumber
			}
			for j++; uint(j) < uint(len(d)) && d[j]-'0' < 10; j++ {
			}
		}
		if vp, ok = p.slab.stringSlot(d[i:j]); ok {
			vt = numberType
		} else {
			p.pos, p.cur = j, lv
			vt, vp = words(p.slab.number(d[i:j], len(d)-j))
			d, lv = p.resume()
			j = p.pos
		}
		i = j
		goto stored
	badNumber:
		_, i, err = p.number(i)
		return nil, i, err
	case 't', 'f', 'n':
		var lit any
		if lit, j = literalAt(d, i); j > i {
			vt, vp = words(lit)
			i = j
			goto stored
		}
		word := "null"
		if c == 't' {
			word = "true"
		} else if c == 'f' {
			word = "false"
		}
		i, err = p.literal(i, word)
		return nil, i, err
	}
	if i >= len(d) {
		return nil, 0, p.errorf(i, "unexpected end of input, want a value")
	}
	return nil, 0, p.unexpected(i, "unexpected %s, want a value")

	// The value v ends at i: it is an entry of the innermost container,
	// which goes on or ends after it.
stored:
	if lv.object {
		// The member's key is in its slot already, or in the level when
		// the chunk had no room (see readKey). Room is tested as len <
		// cap and the length alone written back, so that the slot needs
		// no bounds check (BenchmarkParse: 17.94k instructions a 1.5 KB
		// line with the slice written back whole, 17.58k so, elements
		// included).
		if ms := lv.members; len(ms) < cap(ms) {
			lv.members = lv.members[:len(ms)+1] // stores the length alone
			*(*eface)(unsafe.Pointer(&ms[:len(ms)+1][len(ms)].Value)) = eface{vt, vp}
		} else {
			p.pos, p.cur = i, lv
			lv.moveMembersFor(box(vt, vp))
			d, lv = p.resume()
			i = p.pos
		}
		// The next member's comma, in compact input, goes straight back.
		if uint(i) < uint(len(d)) && d[i] == ',' {
			i++
			goto readKey
		}
		if c = 0; uint(i) < uint(len(d)) {
			if c = d[i]; c <= ' ' {
				i, c = skipSpace(d, i), 0
				if uint(i) < uint(len(d)) {
					c = d[i]
				}
			}
		}
		if c == ',' {
			i++
			goto readKey
		}
		if c == '}' {
			i++
			if lv.index != nil {
				lv.index = nil
			}
			n := len(lv.members)
			obj := Object(lv.members[lv.base:n:n])
			if vp, ok = p.slab.objectSlot(obj); ok {
				vt = objectType
			} else {
				p.pos, p.cur = i, lv
				vt, vp = words(p.slab.object(obj, len(d)-i))
				d, lv = p.resume()
				i = p.pos
			}
			goto pop
		}
		if uint(i) >= uint(len(d)) {
			return nil, 0, p.errorf(i, "unexpected end of input in object")
		}
		return nil, 0, p.unexpected(i, "unexpected %s in object, want ',' or '}'")
	}
	if es := lv.elems; len(es) < cap(es) { // as for a member
		lv.elems = lv.elems[:len(es)+1] // stores the length alone
		*(*eface)(unsafe.Pointer(&es[:len(es)+1][len(es)])) = eface{vt, vp}
	} else {
		p.pos, p.cur = i, lv
		lv.moveElemsFor(box(vt, vp))
		d, lv = p.resume()
		i = p.pos
	}
	if c = 0; uint(i) < uint(len(d)) {
		if c = d[i]; c <= ' ' {
			i, c = skipSpace(d, i), 0
			if uint(i) < uint(len(d)) {
				c = d[i]
			}
		}
	}
	if c == ',' {
		i++
		goto readValue
	}
	if c == ']' {
		i++
		n := len(lv.elems)
		arr := lv.elems[lv.base:n:n]
		if vp, ok = p.slab.arraySlot(arr); ok {
			vt = arrayType
		} else {
			p.pos, p.cur = i, lv
			vt, vp = words(p.slab.array(arr, len(d)-i))
			d, lv = p.resume()
			i = p.pos
		}
		goto pop
	}
	if uint(i) >= uint(len(d)) {
		return nil, 0, p.errorf(i, "unexpected end of input in array")
	}
	return nil, 0, p.unexpected(i, "unexpected %s in array, want ',' or ']'")

	// The innermost container has ended as v: its parent, if any, is
	// the innermost again.
pop:
	if lv = lv.parent; lv == &p.top {
		return box(vt, vp), i, nil
	}
	goto stored

	// A member of the innermost object, from its key (space before it
	// allowed) to the first byte of its value.
readKey:
	// Compact input has no space between tokens: each token is tested
	// for first, and space skipped only when it is not there.
	if uint(i) >= uint(len(d)) || d[i] != '"' {
		if i = skipSpace(d, i); uint(i) >= uint(len(d)) || d[i] != '"' {
			return nil, 0, p.unexpected(i, "unexpected %s, want a string key")
		}
	}
	j = i + 1 // as for a string value
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
		p.cur = lv
		if key, j, err = p.string(i, j); err != nil {
			return nil, 0, err
		}
		d, lv = p.resume()
	}
	// A key whose bit is new is new. Otherwise it is compared with the
	// keys before it (see level.repeats).
	if bit := keyBit(key); lv.seen&bit == 0 {
		lv.seen |= bit
	} else {
		p.pos, p.cur, lv.key = j, lv, key
		if err = p.repeated(lv, i, key); err != nil {
			return nil, 0, err
		}
		d, lv = p.resume()
		key, j = lv.key, p.pos
	}
	if uint(j) >= uint(len(d)) || d[j] != ':' {
		if j = skipSpace(d, j); uint(j) >= uint(len(d)) || d[j] != ':' {
			return nil, 0, p.unexpected(j, "unexpected %s after object key, want ':'")
		}
	}
	// The key goes into its member's slot now, so that no register
	// keeps it while the value is read; the value is written beside it.
	// The slot is past the chunk's length until then (see level).
	if ms := lv.members; len(ms) < cap(ms) {
		ms[:len(ms)+1][len(ms)].Key = key
	} else {
		lv.key = key
	}
	i = j + 1
	goto readValue
}

// resume returns the variables of value's loop, after a call it made.
// Go's calls save no register, and a variable that lives across a call
// is saved on a path that leads to every such call, which in value's
// loop is the path of every value it reads. The loop instead keeps
// across its calls nothing but what it reads back after them: the input
// from the parser, the level from cur, an offset from pos, a key from
// its level.
func (p *parser) resume() (d string, lv *level) {
	return p.data, p.cur
}

// repeated reports key, at offset i, if it is one of the keys before it
// in the object being read into lv, which has seen its bit: they are
// compared with it, or, from indexFrom members on, looked up in an index
// made at the first such key (and from then on every bit is set, so
// that each key is).
func (p *parser) repeated(lv *level, i int, key string) error {
	if lv.repeats(key) {
		return p.duplicate(i, key)
	}
	return nil
}

func (lv *level) repeats(key string) bool {
	base := lv.base
	if lv.index == nil && len(lv.members)-base >= indexFrom {
		lv.index = make(map[string]struct{}, 2*(len(lv.members)-base))
		for _, m := range lv.members[base:] {
			lv.index[m.Key] = struct{}{}
		}
		lv.seen = ^uint64(0)
	}
	if index := lv.index; index != nil {
		if _, ok := index[key]; ok {
			return true
		}
		index[key] = struct{}{}
		return false
	}
	return Object(lv.members[base:]).index(key) >= 0
}

// scalar reads a document whose value at offset i is not an object or
// an array: value reads only the values inside them.
func (p *parser) scalar(i int) (any, int, error) {
	d := p.data
	if i >= len(d) {
		return nil, i, p.errorf(i, "unexpected end of input, want a value")
	}
	switch c := d[i]; c {
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
		return nil, i, p.unexpected(i, "unexpected %s, want a value")
	}
}

// tooDeepMember reports the first member of an object at offset i,
// inside MaxDepth containers: its key is read, and its value refused.
func (p *parser) tooDeepMember(i int) error {
	d := p.data
	if i >= len(d) || d[i] != '"' {
		return p.unexpected(i, "unexpected %s, want a string key")
	}
	_, j, err := p.string(i, i+1)
	if err != nil {
		return err
	}
	if j = skipSpace(d, j); j >= len(d) || d[j] != ':' {
		return p.unexpected(j, "unexpected %s after object key, want ':'")
	}
	return p.tooDeep(skipSpace(d, j+1))
}

// literalAt reads the literal true, false or null at offset i of d, and
// returns it with the offset after it, or i when there is none there:
// objects and arrays read literals without the call to value, which
// reads them again for its error.
func literalAt(d string, i int) (any, int) {
	if uint(i+4) <= uint(len(d)) {
		switch d[i : i+4] {
		case "true":
			return true, i + 4
		case "null":
			return nil, i + 4
		case "fals":
			if uint(i+5) <= uint(len(d)) && d[i+4] == 'e' {
				return false, i + 5
			}
		}
	}
	return nil, i
}

func (p *parser) literal(i int, word string) (int, error) {
	d := p.data
	for k := range len(word) {
		if i >= len(d) || d[i] != word[k] {
			return i, p.errorf(i, "unexpected %s, want %q", p.describe(i), word)
		}
		i++
	}
	return i, nil
}

// indexFrom is the number of members from which an object indexes its keys
// to find repeats, instead of scanning them.
const indexFrom = 16

// duplicate reports a key repeated in an object, at the repeat's offset.
// Readers differ on which value a repeated key has (Python and JavaScript
// keep the last, others the first), so no choice is safe.
func (p *parser) duplicate(i int, key string) error {
	return p.errorf(i, "duplicate key %s in object", AppendString(nil, key))
}

// keyBit hashes a key to one of 64 bits, so that an object finds most keys
// new without comparing them with the keys before.
func keyBit(key string) uint64 {
	h := uint(len(key))
	if len(key) > 0 {
		h += uint(key[0])*7 + uint(key[len(key)-1])*3
	}
	return 1 << (h & 63)
}

// plainByte tells the bytes a string can hold as they are, in the scan
// for its end: printable ASCII but the quote and the backslash.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func (o Object) index(key string) int {
	for i := range o {
		if o[i].Key == key {
			return i
		}
	}
	return -1
}

func (p *parser) number(i int) (any, int, error) {
	start := i
	d := p.data
	if d[i] == '-' {
		i++
	}
	switch {
	case uint(i) < uint(len(d)) && d[i] == '0':
		i++
	case uint(i) < uint(len(d)) && d[i]-'1' < 9:
		for uint(i) < uint(len(d)) && d[i]-'0' < 10 {
			i++
		}
	default:
		return nil, i, p.errorf(i, "invalid number: want a digit after '-'")
	}
	if uint(i) < uint(len(d)) && d[i] == '.' {
		i++
		if uint(i) >= uint(len(d)) || d[i]-'0' >= 10 {
			return nil, i, p.errorf(i, "invalid number: want a digit after '.'")
		}
		for uint(i) < uint(len(d)) && d[i]-'0' < 10 {
			i++
		}
	}
	if uint(i) < uint(len(d)) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if uint(i) < uint(len(d)) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if uint(i) >= uint(len(d)) || d[i]-'0' >= 10 {
			return nil, i, p.errorf(i, "invalid number: want a digit in the exponent")
		}
		for uint(i) < uint(len(d)) && d[i]-'0' < 10 {
			i++
		}
	}
	return p.slab.number(d[start:i], len(d)-i), i, nil
}

// string reads the string whose opening quote is at offset i, when the
// bytes before offset from are known to be plain ASCII.
func (p *parser) string(i, from int) (string, int, error) {
	d := p.data
	start := i + 1
	// Fast path: no escapes; the text is the input's own. The scan stops at
	// each byte of 0x80 or more and checks the character it starts, one at
	// a time: text is mostly ASCII, and a check of the whole string after
	// one "ü" cost more. The callers' scans stop where this one would (or
	// short of the input's last eight bytes), so the byte at from is
	// looked at first, without scanning again the word that holds it.
	for i = from; ; {
		if uint(i) >= uint(len(d)) {
			return "", i, p.errorf(i, "unterminated string")
		}
		c := d[i]
		if c == '"' {
			return sub(d, start, i), i + 1, nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", i, p.errorf(i, "control character %#02x in string", c)
		}
		// Two- and three-byte characters whose lead byte allows any
		// continuation (Latin, most of CJK) are checked here, the rest by
		// utf8Len.
		switch {
		case c < utf8.RuneSelf:
			i++
		case c-0xC2 <= 0xDF-0xC2 && uint(i+1) < uint(len(d)) && d[i+1]&0xC0 == 0x80:
			i += 2
		case c-0xE1 <= 0xEF-0xE1 && c != 0xED && uint(i+2) < uint(len(d)) && d[i+1]&0xC0 == 0x80 && d[i+2]&0xC0 == 0x80:
			i += 3
		default:
			n := utf8Len(d, i)
			if n == 0 {
				return "", i, p.notUTF8(i)
			}
			i += n
		}
		// plainRun, its words scanned here without the call.
		for i+8 <= len(d) {
			if m := scanStops(wordAt(d, i)); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i+8 > len(d) {
			i = plainRun(d, i)
		}
	}
	// The text is unescaped straight into the free end of the slab's text
	// chunk, and kept there (see slab.text).
	buf := append(p.slab.textRoom(i-start, len(d)-i), d[start:i]...)
	for {
		// Text carried as JSON text has an escape every few bytes: plain
		// words are appended whole, and the one with a stop up to it, and
		// its escapes (\" and \\) are decoded without leaving the loop.
		// AppendString has the mirror of this loop: one helper for
		// both is not inlined (bench/README.md).
		for i+8 <= len(d) {
			x := wordAt(d, i)
			m := scanStops(x)
			if m == 0 {
				buf = binary.LittleEndian.AppendUint64(buf, x)
				i += 8
				continue
			}
			k := bits.TrailingZeros64(m) / 8
			n := len(buf)
			buf = binary.LittleEndian.AppendUint64(buf, x)[:n+k]
			if i += k; d[i] != '\\' || i+1 >= len(d) || d[i+1] != '"' && d[i+1] != '\\' {
				break
			}
			buf = append(buf, d[i+1])
			i += 2
		}
		if i+8 > len(d) {
			end := plainRun(d, i) // the last bytes of the input
			buf = append(buf, d[i:end]...)
			i = end
		}
		if i >= len(d) {
			return "", i, p.errorf(i, "unterminated string")
		}
		c := d[i]
		switch {
		case c == '"':
			return p.slab.keepText(buf), i + 1, nil
		case c < 0x20:
			return "", i, p.errorf(i, "control character %#02x in string", c)
		case c >= utf8.RuneSelf:
			n := utf8Len(d, i)
			if n == 0 {
				return "", i, p.notUTF8(i)
			}
			buf = append(buf, d[i:i+n]...)
			i += n
			continue
		}
		i++ // backslash
		if i >= len(d) {
			return "", i, p.errorf(i, "unterminated string")
		}
		e := d[i]
		i++
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := hex4(d, i)
			if !ok {
				return "", i, p.errorf(i, "invalid \\u escape")
			}
			i += 4
			if utf16.IsSurrogate(r) {
				// A high surrogate followed by a low one is one character;
				// a lone surrogate has no UTF-8 form and is kept as WTF-8.
				if i+1 < len(d) && d[i] == '\\' && d[i+1] == 'u' {
					if r2, ok := hex4(d, i+2); ok {
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							buf = utf8.AppendRune(buf, dec)
							i += 6
							continue
						}
					}
				}
				buf = appendSurrogate(buf, r)
				continue
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", i - 1, p.errorf(i-1, "invalid escape '\\%c' in string", e)
		}
	}
}

// notUTF8 reports the byte at offset i, which starts no UTF-8 character.
func (p *parser) notUTF8(i int) error {
	return p.errorf(i, "invalid UTF-8 (byte %#02x) in string: JSON text must be UTF-8; is the file in another encoding, such as Windows-1252 or Latin-1?", p.data[i])
}

// appendSurrogate appends a lone surrogate (U+D800 to U+DFFF) as WTF-8 does:
// the three bytes UTF-8 would give it if it allowed surrogates, ED A0 80
// to ED BF BF. No valid UTF-8 has them, so the string differs from every
// string of characters and from every other lone surrogate.
func appendSurrogate(dst []byte, r rune) []byte {
	return append(dst, 0xED, 0x80|byte(r>>6&0x3F), 0x80|byte(r&0x3F))
}

// surrogateAt returns the lone surrogate whose WTF-8 bytes are at offset i
// of s, if they are.
func surrogateAt(s string, i int) (rune, bool) {
	if i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
		return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), true
	}
	return 0, false
}

// DecodeRune is [utf8.DecodeRuneInString] for the strings of the model: a
// lone surrogate kept as WTF-8 (see [Parse]) is one character, the
// surrogate code point, of three bytes, as it is one in Python's and
// JavaScript's strings. Other bytes that are not UTF-8, which the parser
// never returns, are (utf8.RuneError, 1).
func DecodeRune(s string) (rune, int) {
	if r, ok := surrogateAt(s, 0); ok {
		return r, 3
	}
	return utf8.DecodeRuneInString(s)
}

// utf8Len returns the length of the valid UTF-8 character at offset i of
// d, or 0 if the bytes there are not one.
func utf8Len(d string, i int) int {
	// Two- and three-byte characters whose lead byte allows any
	// continuation (all of Latin, Greek, Cyrillic and most of CJK) are
	// checked here; the rest by the utf8 package.
	switch c := d[i]; {
	case c >= 0xC2 && c <= 0xDF:
		if i+1 < len(d) && d[i+1]&0xC0 == 0x80 {
			return 2
		}
	case c >= 0xE1 && c <= 0xEF && c != 0xED:
		if i+2 < len(d) && d[i+1]&0xC0 == 0x80 && d[i+2]&0xC0 == 0x80 {
			return 3
		}
	}
	r, n := utf8.DecodeRuneInString(d[i:])
	if r == utf8.RuneError && n == 1 {
		return 0
	}
	return n
}

// hex4 reads the four hex digits at offset i of d.
func hex4(d string, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(d[i : i+4]) {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	return r, true
}

// Masks for looking at eight bytes at once.
const (
	lsb = 0x0101010101010101 // the low bit of each byte
	msb = 0x8080808080808080 // the high bit of each byte
)

// word returns the eight bytes of s at offset i, the first in the lowest
// byte.
func word(s string, i int) uint64 {
	w := s[i : i+8]
	return uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
		uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
}

// The parser's innermost loops read the input without the checks Go
// makes of an index: they test their bounds once, as a scan's loop
// condition or a caller's, and the checks made again of each load and
// slice cost 0.6k instructions a small case line, 5% of the parser
// (BenchmarkParse, callgrind). These two helpers are the only such
// reads; each states what its caller must have tested.

// wordAt is word for 0 <= i and i+8 <= len(s), which the caller has
// tested: one load. It reads the bytes in the machine's order, and turns
// them into word's on a big-endian machine (a test the compiler folds
// away).
func wordAt(s string, i int) uint64 {
	x := *(*uint64)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i))
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		x = bits.ReverseBytes64(x)
	}
	return x
}

// load4At is wordAt for four bytes, 0 <= i and i+4 <= len(s), the
// first in the lowest byte.
func load4At(s string, i int) uint32 {
	x := *(*uint32)(unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i))
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		x = bits.ReverseBytes32(x)
	}
	return x
}

// sub is s[i:j] for 0 <= i <= j < len(s), which the caller has tested
// (the closing quote at j, found in s). It writes the string's two words
// itself: unsafe.String would test again what the caller did, and
// slicing also guards against a pointer past the end for an empty result,
// which j < len(s) already rules out. That relies on a string's layout,
// its data's address then its length, as reflect.StringHeader had it:
// stringLayout checks it when the package starts and stops the program
// where it does not hold (a test of the layout in sub, or a second path,
// costs the parser's loops 0.3k instructions a line; forging makes the
// same check of interfaces, but has a slower way to fall back on).
// TestSubAgreesWithSlicing holds sub to slicing.
func sub(s string, i, j int) string {
	var t string
	*(*stringHeader)(unsafe.Pointer(&t)) = stringHeader{unsafe.Add(unsafe.Pointer(unsafe.StringData(s)), i), j - i}
	return t
}

// stringHeader is the layout of a string.
type stringHeader struct {
	data unsafe.Pointer
	len  int
}

var _ = stringLayout()

func stringLayout() bool {
	str := "probe"
	if h := (*stringHeader)(unsafe.Pointer(&str)); h.data != unsafe.Pointer(unsafe.StringData(str)) || h.len != len(str) {
		panic("jsonvalue: strings are not laid out as sub assumes (json.go)")
	}
	return true
}

// stops sets the high bit of the first byte of x that is a quote, a
// backslash, a control character or a byte of 0x80 or more (part of a
// multi-byte character): the bytes plainByte rejects. Bytes after it may
// be flagged too, whatever they are; none before it is, and no flag means
// no such byte (TestStopsFindsTheFirstStop).
func stops(x uint64) uint64 {
	// A byte's high bit is set in v - 1 when v is zero (the xors make a
	// quote's and a backslash's zero), and in x - 0x20 when x < 0x20 or
	// x >= 0xA0; 0x80 to 0x9F are 0xA0 to 0xBF in q, and set it in q - 1.
	// Only a byte so flagged borrows from the byte after it.
	q := x ^ (lsb * '"')
	b := x ^ (lsb * '\\')
	return ((q - lsb) | (b - lsb) | (x - 0x20*lsb)) & msb
}

// scanStops is stops for the parser's scans, its constants read from
// memory as operands of the instructions that use them: Go gives the
// loops no register to keep a constant in, and makes each of the five
// again for each word, an instruction apiece.
func scanStops(x uint64) uint64 {
	q := x ^ stopQuotes
	b := x ^ stopBackslashes
	return ((q - stopOnes) | (b - stopOnes2) | (x - stopControls)) & stopHighs
}

// The constants of stops, as variables (never written) for scanStops.
var (
	stopQuotes      uint64 = lsb * '"'
	stopBackslashes uint64 = lsb * '\\'
	stopOnes        uint64 = lsb
	stopOnes2       uint64 = lsb
	stopControls    uint64 = 0x20 * lsb
	stopHighs       uint64 = msb
)

// plainRun returns the index of the first byte of s at or after i that is
// not plain string text (see stops), len(s) when there is none. It tests
// eight bytes at a time: string scanning is most of the work of reading
// and writing JSON.
func plainRun(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if m := stops(wordAt(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(s) && plainByte[s[i]] {
		i++
	}
	return i
}

// Append appends the compact JSON form of a value in the model to dst.
// Object members keep their order and numbers their spelling. Values outside
// the model are written through encoding/json.
func Append(dst []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		return strconv.AppendBool(dst, v)
	case string:
		return AppendString(dst, v)
	case json.Number:
		if v == "" {
			return append(dst, '0')
		}
		return append(dst, v...)
	case []any:
		dst = append(dst, '[')
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = Append(dst, e)
		}
		return append(dst, ']')
	case Object:
		dst = append(dst, '{')
		for i, m := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, m.Key)
			dst = append(dst, ':')
			dst = Append(dst, m.Value)
		}
		return append(dst, '}')
	case float64:
		return AppendFloat(dst, v)
	case int:
		return strconv.AppendInt(dst, int64(v), 10)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return AppendString(dst, fmt.Sprint(v))
	}
	return append(dst, b...)
}

// AppendFloat appends a float64 as the shortest JSON number that reads back
// to the same value; NaN and infinities, which JSON lacks, become null.
func AppendFloat(dst []byte, f float64) []byte {
	key := math.Float64bits(f)
	switch key {
	case 0: // the most common scores, before any other test
		return append(dst, '0')
	case 0x3ff0000000000000: // 1
		return append(dst, '1')
	}
	slot := &floatTexts[key*0x9e3779b97f4a7c15>>(64-floatTextBits)]
	if t := slot.Load(); t != nil && t.bits == key {
		return append(dst, t.text...)
	}
	n := len(dst)
	dst = appendFloat(dst, f)
	slot.Store(&floatText{key, string(dst[n:])})
	return dst
}

// appendFloat is AppendFloat without the texts remembered.
func appendFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	abs := math.Abs(f)
	if abs < 1<<53 && f == math.Trunc(f) && (f != 0 || !math.Signbit(f)) {
		// Whole numbers spell as integers; the shortest form of one
		// below 2^53 is exactly that.
		return AppendInt(dst, int(f))
	}
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		return strconv.AppendFloat(dst, f, 'e', -1, 64)
	}
	return strconv.AppendFloat(dst, f, 'f', -1, 64)
}

// floatTexts remembers the text of floats written lately, by a hash of
// their bits. A run writes the same few ratios (1/3, 2/5, their F1) over
// and over, and finding the shortest text of one costs strconv hundreds of
// instructions; a repeat costs a load and a copy.
var floatTexts [1 << floatTextBits]atomic.Pointer[floatText]

const floatTextBits = 10

type floatText struct {
	bits uint64
	text string
}

// AppendInt appends n in decimal. Numbers below 100, most indexes and
// counts written, take a store or two instead of strconv's call.
func AppendInt(dst []byte, n int) []byte {
	switch {
	case uint(n) < 10:
		return append(dst, byte('0'+n))
	case uint(n) < 100:
		return append(dst, byte('0'+n/10), byte('0'+n%10))
	}
	return strconv.AppendInt(dst, int64(n), 10)
}

// AppendStrings appends list as a JSON array of strings.
func AppendStrings(dst []byte, list []string) []byte {
	dst = append(dst, '[')
	for i, s := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendString(dst, s)
	}
	return append(dst, ']')
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string. Only what JSON requires is
// escaped (quote, backslash, control characters). A lone surrogate kept as
// WTF-8 (see [Parse]) is written as its escape ("\ud800"), so that the
// string reads back as it was; other bytes that are not UTF-8 (which no
// parsed value has) are written as \ufffd.
func AppendString(dst []byte, s string) []byte {
	// Most strings written are short (keys, names, argument values) and
	// need no escape: written with a few stores, without the loops.
	if n, l := len(s), len(dst); n <= 16 && cap(dst)-l >= 18 && binary.NativeEndian.Uint16([]byte{1, 0}) == 1 {
		// Loads and stores by hand, as appendStringInRoom's. Each byte
		// is tested and copied as one of two words that may overlap (of
		// 8 or 4 bytes; below 4, as one of three bytes). The two halves
		// of 4 to 7 bytes, or the three bytes, are tested side by side in
		// one word, filled with plain bytes: no shift depends on n (a
		// variable shift costs Go a test of its count).
		src, out := unsafe.Pointer(unsafe.StringData(s)), unsafe.Add(unsafe.Pointer(unsafe.SliceData(dst)), l)
		switch {
		case n >= 8:
			lo, hi := *(*uint64)(src), *(*uint64)(unsafe.Add(src, n-8))
			if stops(lo)|stops(hi) != 0 {
				return appendString(dst, s)
			}
			*(*uint64)(unsafe.Add(out, n-7)) = hi
			*(*uint64)(unsafe.Add(out, 1)) = lo
		case n >= 4:
			lo, hi := *(*uint32)(src), *(*uint32)(unsafe.Add(src, n-4))
			if stops(uint64(lo)|uint64(hi)<<32) != 0 {
				return appendString(dst, s)
			}
			*(*uint32)(unsafe.Add(out, n-3)) = hi
			*(*uint32)(unsafe.Add(out, 1)) = lo
		case n > 0:
			a, b, c := s[0], s[n/2], s[n-1]
			if stops(uint64(a)|uint64(b)<<8|uint64(c)<<16|(lsb*'a')&^0xFFFFFF) != 0 {
				return appendString(dst, s)
			}
			*(*byte)(unsafe.Add(out, 1)), *(*byte)(unsafe.Add(out, 1+n/2)), *(*byte)(unsafe.Add(out, n)) = a, b, c
		}
		*(*byte)(out), *(*byte)(unsafe.Add(out, n+1)) = '"', '"'
		return dst[:l+n+2]
	}
	return appendString(dst, s)
}

// appendString is AppendString for any string.
func appendString(dst []byte, s string) []byte {
	// A plain string of up to 32 bytes (addresses, dates, phrases) is
	// written as AppendString writes one of up to 16.
	if n, l := len(s), len(dst); n > 16 && n <= 32 && cap(dst)-l >= 34 {
		a, b, c, d := word(s, 0), word(s, 8), word(s, n-16), word(s, n-8)
		if stops(a)|stops(b)|stops(c)|stops(d) == 0 {
			out := dst[l : l+34]
			binary.LittleEndian.PutUint64(out[1:9], a)
			binary.LittleEndian.PutUint64(out[9:17], b)
			binary.LittleEndian.PutUint64(out[n-15:n-7], c)
			binary.LittleEndian.PutUint64(out[n-7:n+1], d)
			out[0], out[n+1] = '"', '"'
			return dst[:l+n+2]
		}
	}
	if n := len(s); n >= 8 && cap(dst)-len(dst) >= 2*n+10 && binary.NativeEndian.Uint16([]byte{1, 0}) == 1 {
		return appendStringInRoom(dst, s)
	}
	return append(appendEscaped(append(dst, '"'), s), '"')
}

// appendStringInRoom is appendString for s of 8 bytes or more when dst has
// room for every byte of s escaped as two, both quotes and a word more,
// on a little-endian machine: it loads and stores a word at a time
// without testing for room, and an escape of quoted JSON (a quote or a
// backslash, or a member's quotes ":" and ",") costs a store and loading
// the next word from after it. A character of two or three bytes within
// the word is left as stored. A control character, a lone surrogate or a
// byte that is not UTF-8 hands the rest to appendEscaped.
func appendStringInRoom(dst []byte, s string) []byte {
	n, end := len(s), len(s)-8
	src := unsafe.Pointer(unsafe.StringData(s))
	// s[i] goes to out+i: each escape moves out on past the bytes it
	// adds.
	base := unsafe.Pointer(unsafe.SliceData(dst))
	out := unsafe.Add(base, len(dst)+1)
	*(*byte)(unsafe.Add(out, -1)) = '"'
	for i := 0; i < n; {
		var x, m uint64 // x holds s[i:], up to 8 bytes, zeros above
		var k int       // the stop's offset in x
		if i <= end {
			// The whole word is stored; what follows a stop is written
			// over. (wordAt and scanStops by hand: inlined, each left an
			// instruction of its own in the loop.)
			for {
				x = *(*uint64)(unsafe.Add(src, i))
				*(*uint64)(unsafe.Add(out, i)) = x
				m = ((x ^ stopQuotes - stopOnes) | (x ^ stopBackslashes - stopOnes2) | (x - stopControls)) & stopHighs
				if m != 0 {
					break
				}
				if i += 8; i > end {
					break
				}
			}
			if m == 0 {
				continue // to the last bytes, if any
			}
			// k is found in each branch, where Go knows that m is not
			// zero: after the branches it would test m for zero first
			// (two instructions a stop, without BMI1).
			k = bits.TrailingZeros64(m) / 8
		} else { // the last bytes, as the top of the last word
			sh := uint(8*(i-end)) & 63
			x = *(*uint64)(unsafe.Add(src, end)) >> sh
			*(*uint64)(unsafe.Add(out, i)) = x
			if m = scanStops(x) & (msb >> sh); m == 0 {
				break
			}
			k = bits.TrailingZeros64(m) / 8
		}
		i += k
		x >>= 8 * k & 63
		switch c := byte(x); {
		case c == '"':
			if w := x & 0xFFFFFF; k <= 5 && (w == '"'|':'<<8|'"'<<16 || w == '"'|','<<8|'"'<<16) {
				*(*uint64)(unsafe.Add(out, i)) = '\\' | '"'<<8 | (w&0xFF00)<<8 | '\\'<<24 | '"'<<32
				out, i = unsafe.Add(out, 2), i+3
				continue
			}
			fallthrough
		case c == '\\':
			*(*[2]byte)(unsafe.Add(out, i)) = [2]byte{'\\', c}
			out, i = unsafe.Add(out, 1), i+1
			continue
		// A character within x was stored with it (the zeros above s's
		// bytes are no continuation bytes).
		case c >= 0xC2 && c <= 0xDF && x>>8&0xC0 == 0x80:
			i += 2
			continue
		case c >= 0xE1 && c <= 0xEF && c != 0xED && x>>8&0xC0C0 == 0x8080:
			i += 3
			continue
		case c >= utf8.RuneSelf:
			if l := utf8Len(s, i); l > 1 {
				for j := range l {
					*(*byte)(unsafe.Add(out, i+j)) = s[i+j]
				}
				i += l
				continue
			}
		}
		return append(appendEscaped(dst[:int(uintptr(out)-uintptr(base))+i], s[i:]), '"')
	}
	*(*byte)(unsafe.Add(out, n)) = '"'
	return dst[:int(uintptr(out)-uintptr(base))+n+1]
}

// appendEscaped appends s escaped as the inside of a JSON string.
func appendEscaped(dst []byte, s string) []byte {
	// Reasons quote JSON, so escapes come every few bytes, and stopping
	// for each must cost little.
	for i := 0; ; {
		// Plain words are appended whole, and the one with a stop up to it
		// (the mirror of the parser's loop for escaped strings); quotes
		// and backslashes, the escapes of quoted JSON, are escaped without
		// leaving the loop.
		for i+8 <= len(s) {
			x := word(s, i)
			m := stops(x)
			if m == 0 {
				dst = binary.LittleEndian.AppendUint64(dst, x)
				i += 8
				continue
			}
			k := bits.TrailingZeros64(m) / 8
			n := len(dst)
			dst = binary.LittleEndian.AppendUint64(dst, x)[:n+k]
			if i += k; s[i] != '"' && s[i] != '\\' {
				break
			}
			// A member's quotes in JSON, ":" and ",", escaped at once.
			if w := x >> (8 * k & 63) & 0xFFFFFF; k <= 5 && (w == '"'|':'<<8|'"'<<16 || w == '"'|','<<8|'"'<<16) {
				dst = append(dst, '\\', '"', byte(w>>8), '\\', '"')
				i += 3
				continue
			}
			dst = append(dst, '\\', s[i])
			i++
		}
		for i < len(s) && plainByte[s[i]] { // the last bytes, or a short s
			dst = append(dst, s[i])
			i++
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			continue
		}
		switch n := utf8Len(s, i); n {
		case 2: // most characters of reasons beyond ASCII: without memmove's call
			dst = append(dst, s[i], s[i+1])
			i += 2
			continue
		case 3:
			dst = append(dst, s[i], s[i+1], s[i+2])
			i += 3
			continue
		case 4:
			dst = append(dst, s[i:i+4]...)
			i += 4
			continue
		}
		if r, ok := surrogateAt(s, i); ok {
			dst = append(dst, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
			i += 3
		} else {
			dst = append(dst, `\ufffd`...)
			i++
		}
	}
	return dst
}
