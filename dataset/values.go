package dataset

import (
	"bufio"
	"fmt"
	"io"
)

// valueScanner splits JSON text into top-level values without decoding
// them, tracking lines. It checks only strings and bracket balance; the
// content of each value is checked when the record is decoded, so that a
// bad value is an error result and not the end of the run.
type valueScanner struct {
	br   *bufio.Reader
	sp   *splitter
	name string
	line int
	buf  []byte

	recordLine int // the line the current value starts on
}

func (s *valueScanner) next() (byte, error) {
	c, err := s.br.ReadByte()
	if err == nil && c == '\n' {
		s.line++
	}
	return c, err
}

func (s *valueScanner) unread(c byte) {
	s.br.UnreadByte()
	if c == '\n' {
		s.line--
	}
}

func (s *valueScanner) skipSpace() (byte, error) {
	for {
		c, err := s.next()
		if err != nil {
			return 0, err
		}
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c, nil
	}
}

// add appends c to the value, within the record budget.
func (s *valueScanner) add(c byte) error {
	if len(s.buf) >= s.sp.max {
		return s.sp.tooLarge(s.recordLine, "record starting here")
	}
	s.buf = append(s.buf, c)
	return nil
}

func (s *valueScanner) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", s.name, s.line, fmt.Sprintf(format, args...))
}

// value reads one value starting with c into s.buf.
func (s *valueScanner) value(c byte) error {
	s.buf = append(s.buf[:0], c)
	switch c {
	case '{', '[':
	case '"':
		return s.str()
	default: // a scalar runs to the next delimiter
		for {
			c, err := s.next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			switch c {
			case ',', ']', '}', ' ', '\t', '\r', '\n':
				s.unread(c)
				return nil
			}
			if err := s.add(c); err != nil {
				return err
			}
		}
	}
	start := s.line
	depth := 1
	for depth > 0 {
		c, err := s.next()
		if err == io.EOF {
			return fmt.Errorf("%s:%d: the value starting here is not closed before the end of the input", s.name, start)
		}
		if err != nil {
			return err
		}
		if err := s.add(c); err != nil {
			return err
		}
		switch c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			if err := s.str(); err != nil {
				return err
			}
		}
	}
	return nil
}

// str reads the rest of a string whose opening quote is in s.buf.
func (s *valueScanner) str() error {
	start := s.line
	escaped := false
	for {
		c, err := s.next()
		if err == io.EOF {
			return fmt.Errorf("%s:%d: string not closed before the end of the input", s.name, start)
		}
		if err != nil {
			return err
		}
		if err := s.add(c); err != nil {
			return err
		}
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == '"':
			return nil
		}
	}
}

// readValues yields the elements of a top-level JSON array, or the
// top-level values of a stream of JSON values, starting at line firstLine.
func (sp *splitter) readValues(br *bufio.Reader, firstLine int) error {
	name := sp.file.source
	s := &valueScanner{br: br, sp: sp, name: name, line: firstLine}
	c, err := s.skipSpace()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return err
	}
	lastLine, nth := 0, 0
	emit := func() bool {
		if s.recordLine != lastLine {
			lastLine, nth = s.recordLine, 0
		}
		nth++
		return sp.emit(record{data: string(s.buf), line: s.recordLine, nth: nth})
	}
	if c != '[' {
		// Values one after another.
		for {
			s.recordLine = s.line
			if err := s.value(c); err != nil {
				return err
			}
			if !emit() {
				return errStop
			}
			c, err = s.skipSpace()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
		}
	}
	// The elements of one array.
	c, err = s.skipSpace()
	if err != nil {
		return s.errorf("the array is not closed before the end of the input")
	}
	if c == ']' {
		return s.trailing()
	}
	for {
		s.recordLine = s.line
		if err := s.value(c); err != nil {
			return err
		}
		if !emit() {
			return errStop
		}
		c, err = s.skipSpace()
		if err != nil {
			return s.errorf("the array is not closed before the end of the input")
		}
		switch c {
		case ']':
			return s.trailing()
		case ',':
			if c, err = s.skipSpace(); err != nil {
				return s.errorf("the array is not closed before the end of the input")
			}
		default:
			return s.errorf("want ',' or ']' between array elements, got %q", c)
		}
	}
}

func (s *valueScanner) trailing() error {
	c, err := s.skipSpace()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return err
	}
	return s.errorf("unexpected %q after the array", c)
}
