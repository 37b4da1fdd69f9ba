package mcp

import (
	"errors"
	"fmt"
	"strings"
)

// SplitCommand splits a command line into words as a POSIX shell does for
// plain words and quotes, without expanding anything: words are separated
// by blanks; 'single quotes' keep everything; "double quotes" keep
// everything but a backslash before ", \, $ or `; outside quotes a
// backslash keeps the next character. Errors name the column of an
// unterminated quote.
func SplitCommand(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\':
			inWord = true
			if i+1 < len(line) {
				i++
				if line[i] != '\n' {
					cur.WriteByte(line[i])
				}
			} else {
				cur.WriteByte('\\')
			}
		case c == '\'':
			inWord = true
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("column %d: unterminated single quote", i+1)
			}
			cur.WriteString(line[i+1 : i+1+end])
			i += end + 1
		case c == '"':
			inWord = true
			start := i
			closed := false
			for i++; i < len(line); i++ {
				if line[i] == '"' {
					closed = true
					break
				}
				if line[i] == '\\' && i+1 < len(line) && strings.IndexByte("\"\\$`", line[i+1]) >= 0 {
					i++
				}
				cur.WriteByte(line[i])
			}
			if !closed {
				return nil, fmt.Errorf("column %d: unterminated double quote", start+1)
			}
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	if len(words) == 0 {
		return nil, errors.New("empty command")
	}
	return words, nil
}
