// Package escape holds the escapes toolgrade's writers give text that a
// reader of their output must also know: package report writes with them,
// and package secret finds a secret written through them.
package escape

import "strings"

// Markdown escapes text for a Markdown table cell or line: HTML specials
// as entities, Markdown punctuation with a backslash. Control characters
// are the caller's to escape first.
func Markdown(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\\', '`', '*', '_', '[', ']', '|', '~', '#', '!', '(', ')', '{', '}':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
