package main

import (
	"github.com/spf13/pflag"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/dataset"
	"github.com/toolgrade/toolgrade/internal/budget"
	"github.com/toolgrade/toolgrade/internal/sniff"
	"github.com/toolgrade/toolgrade/schema"
)

// Every input of every command is read here, within the run's budgets
// (the flags --max-line-size and --max-file-size, on every command): case
// files as they stream, and the files read whole (traces, configs, tool
// definitions). Other readers (results for compare, serve's requests)
// take m.sizes.Line.

// registerBudgets adds the budget flags, which every command takes.
func (m *Main) registerBudgets(fs *pflag.FlagSet) {
	m.sizes = budget.Sizes{Line: budget.DefaultLine, File: budget.DefaultFile}
	fs.Var(sizeFlag{&m.sizes.Line}, "max-line-size", "the most bytes toolgrade reads of one line (or one record of a case file: a JSON array's element, a YAML document or list item)")
	fs.Var(sizeFlag{&m.sizes.File}, "max-file-size", "the most bytes toolgrade reads of a file it reads whole (a trace for extract, a config, a tools file)")
}

// A sizeFlag is a size in bytes, written "64MiB", "2GiB" or "100000".
type sizeFlag struct{ n *int64 }

func (f sizeFlag) String() string {
	if f.n == nil {
		return ""
	}
	return budget.Format(*f.n)
}

func (f sizeFlag) Set(s string) error {
	n, err := budget.Parse(s)
	if err != nil {
		return err
	}
	*f.n = n
	return nil
}

func (f sizeFlag) Type() string { return "size" }

// readFile reads an input read whole ("-" is standard input) within
// --max-file-size.
// A directory is refused by name; the bytes are as read (a trace may be
// a zip archive), for the reader to take as text (sniff).
func (m *Main) readFile(path string) ([]byte, error) {
	if path != "-" && sniff.IsDirectory(path) {
		return nil, &sniff.DirectoryError{Name: path}
	}
	return budget.ReadFile(path, m.Stdin, m.sizes.File, budget.FileFlag)
}

// loadConfig reads a --config file.
func (m *Main) loadConfig(path string) (*config.Config, error) {
	data, err := m.readFile(path)
	if err != nil {
		return nil, err
	}
	return config.Read(path, data)
}

// readTools reads a file of tool definitions.
func (m *Main) readTools(path string) ([]toolgrade.Tool, error) {
	data, err := m.readFile(path)
	if err != nil {
		return nil, err
	}
	return schema.ReadText(path, data)
}

// cases reads case files as they stream; "-" is standard input.
func (m *Main) cases() dataset.Source {
	return dataset.Source{Stdin: m.Stdin, MaxRecord: m.sizes.Line}
}
