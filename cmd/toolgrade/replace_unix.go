//go:build unix

package main

import (
	"os"
	"syscall"
)

// replaceable reports whether a file may be replaced by a new one of the
// same name: it is ours and has no other name (a hard link), which a new
// file would not share.
func replaceable(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink == 1 && int(st.Uid) == os.Getuid()
}
