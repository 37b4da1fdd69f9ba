package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
	"github.com/toolgrade/toolgrade"
)

// versionString is the version every build says: v and the VERSION file
// compiled into the module, whether built with go build, go install or the
// release builds of the wheel and the npm packages.
func versionString() string { return "v" + toolgrade.Version() }

// commitString says which commit the binary was built from, as go build
// stamps it from the repository (with "modified" when the tree had
// uncommitted changes), or "" when the build had no version control
// information (a build outside a clone, or with -buildvcs=false).
func commitString(info *debug.BuildInfo) string {
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if rev == "" {
		return ""
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return "commit " + rev + modified
}

func (m *Main) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, the commit it was built from and the platform",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			line := "toolgrade " + versionString()
			if info, ok := debug.ReadBuildInfo(); ok {
				if c := commitString(info); c != "" {
					line += " (" + c + ")"
				}
			}
			_, err := fmt.Fprintf(m.Stdout, "%s %s/%s %s\n", line, runtime.GOOS, runtime.GOARCH, runtime.Version())
			return err
		},
	}
}
