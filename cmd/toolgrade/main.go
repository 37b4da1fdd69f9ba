// Command toolgrade grades how well LLM agents call tools.
//
// Exit status: 0 when every case passed, 1 when a case failed its threshold
// or could not be scored, 2 for bad usage or an unreadable input.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	m := NewMain()
	if err := m.Run(ctx, os.Args[1:]); err != nil {
		var exit *ExitError
		if errors.As(err, &exit) {
			if exit.Err != nil {
				fmt.Fprintln(m.Stderr, "toolgrade:", exit.Err)
			}
			os.Exit(exit.Code)
		}
		fmt.Fprintln(m.Stderr, "toolgrade:", err)
		os.Exit(2)
	}
}

// Main is the program, with its standard streams and environment, so that
// tests can run it in-process.
type Main struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
}

// NewMain returns a Main wired to the process's streams and environment.
func NewMain() *Main {
	return &Main{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
}

// An ExitError ends the program with Code, after printing Err if set.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return fmt.Sprintf("exit status %d", e.Code)
}

func (e *ExitError) Unwrap() error { return e.Err }

// usageError marks bad usage (exit 2).
func usageError(format string, args ...any) error {
	return &ExitError{Code: 2, Err: fmt.Errorf(format, args...)}
}

// Run parses args (without the program name) and runs the subcommand.
// Errors other than *ExitError mean bad usage (exit 2).
func (m *Main) Run(ctx context.Context, args []string) error {
	root := &cobra.Command{
		Use:           "toolgrade",
		Short:         "Grade how well LLM agents call tools",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(m.Stdin)
	root.SetOut(m.Stdout)
	root.SetErr(m.Stderr)
	root.SetArgs(args)
	root.AddCommand(
		m.evalCommand(),
		m.extractCommand(),
		m.compareCommand(),
		m.initCommand(),
		m.bfclCommand(),
		m.runCommand(),
		m.promptsCommand(),
		m.versionCommand(),
	)
	return root.ExecuteContext(ctx)
}
