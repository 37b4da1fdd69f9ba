//go:build unix

package outfile

import (
	"errors"
	"syscall"
)

// ended reports whether no process has the id pid.
func ended(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
