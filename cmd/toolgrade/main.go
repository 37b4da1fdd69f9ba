// Command toolgrade grades how well LLM agents call tools.
//
// Exit status: 0 when every case passed, 1 when a case failed its threshold
// or could not be scored, 2 for bad usage or an unreadable input; 128 plus
// the signal's number (130, 143, 129) when SIGINT, SIGTERM or SIGHUP
// interrupted it, and 141 when standard output or error was a pipe that
// its reader closed.
//
// Each subcommand is one file: its flags, then calls into the library.
// Grading, reading files and writing reports belong to the packages; this
// one only wires them, and [Main.Run] lets tests run it in-process.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/toolgrade/toolgrade"
	"github.com/toolgrade/toolgrade/config"
	"github.com/toolgrade/toolgrade/internal/budget"
	"github.com/toolgrade/toolgrade/internal/outfile"
	"github.com/toolgrade/toolgrade/internal/suggest"
	"github.com/toolgrade/toolgrade/secret"
)

func main() {
	// The signals are not given back when main returns, as they are not
	// when it exits with a status: the process ends then, and each
	// signal.Stop waits for the runtime's signal thread.
	ctx, _ := interruptible(context.Background())
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

	args []string // as Run was given them, for the reports
	// secrets are the run's secrets (see package secret): every
	// credential read is added (credential), and every output is
	// scrubbed of them: the standard streams and the error by Run, the
	// files by output, the cache and the requests by the model's and
	// the judge's clients.
	secrets *secret.Set
	warned  *sync.Map    // warnings said in the run, for warn
	sizes   budget.Sizes // the budgets of what is read (budget.go)
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
// Errors other than *ExitError mean bad usage (exit 2). What it writes,
// and the error, are scrubbed of the run's secrets. A write to Stdout or
// Stderr that fails makes the command fail (see streamError), whatever it
// did otherwise.
func (m *Main) Run(ctx context.Context, args []string) error {
	out := &stream{w: m.Stdout, name: "standard output"}
	errOut := &stream{w: m.Stderr, name: "standard error"}
	run := *m
	run.args = args
	run.secrets, run.warned = &secret.Set{}, &sync.Map{}
	// The scrubber is above the stream, so that a write it held back and
	// flushes at the end still counts as a write to the stream.
	stdout, stderr := run.secrets.Writer(out), run.secrets.Writer(errOut)
	run.Stdout, run.Stderr = stdout, stderr
	err := run.run(ctx, args)
	stdout.Flush()
	stderr.Flush()
	if serr := streamError(out, errOut); serr != nil {
		return serr
	}
	// A command stopped by a signal exits as interrupted, whatever error
	// the cancellation gave it.
	var exit *ExitError
	if stopped := interrupted(ctx); stopped != nil && err != nil {
		switch {
		case !errors.As(err, &exit):
			err = &ExitError{Code: stopped.code(), Err: fmt.Errorf("%v: %w", stopped, err)}
		case exit.Code == stopped.code():
		case exit.Err == nil:
			err = &ExitError{Code: stopped.code(), Err: stopped}
		default:
			err = &ExitError{Code: stopped.code(), Err: fmt.Errorf("%v: %w", stopped, exit.Err)}
		}
	}
	if errors.As(err, &exit) {
		exit.Err = run.secrets.Error(exit.Err)
		return err
	}
	return run.secrets.Error(err)
}

func (m *Main) run(ctx context.Context, args []string) error {
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
	m.registerBudgets(root.PersistentFlags())
	root.AddCommand(
		m.evalCommand(),
		m.extractCommand(),
		m.snapshotCommand(),
		m.compareCommand(),
		m.initCommand(),
		m.bfclCommand(),
		m.runCommand(),
		m.promptsCommand(),
		m.toolsCommand(), // tools.go: MCP servers' tools, shapes, lint
		m.serveCommand(),
		m.versionCommand(),
	)
	root.SetFlagErrorFunc(flagError)
	for _, cmd := range root.Commands() {
		explainArgs(cmd)
		cmd.PreRunE = checkFlags
	}
	return commandError(root, root.ExecuteContext(ctx))
}

// commandError says, for an unknown command, which one was likely meant.
func commandError(root *cobra.Command, err error) error {
	var typed string
	if err == nil || !strings.HasPrefix(err.Error(), "unknown command ") {
		return err
	}
	if _, serr := fmt.Sscanf(strings.TrimPrefix(err.Error(), "unknown command "), "%q", &typed); serr != nil {
		return err
	}
	var commands []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			commands = append(commands, c.Name())
		}
	}
	if meant := suggest.Meant(typed, commands); len(meant) > 0 {
		return usageError("unknown command %q; did you mean toolgrade %s?", typed, suggest.Or(meant))
	}
	return usageError("unknown command %q (toolgrade help lists the commands: %s)", typed, strings.Join(commands, ", "))
}

// credential reads an environment variable that holds a credential (an
// API key, a header's token), making its value a secret of the run.
func (m *Main) credential(name string) string {
	return m.secrets.Getenv(m.getenv())(name)
}

// getenv returns Getenv, or os.Getenv when it is nil.
func (m *Main) getenv() func(string) string {
	if m.Getenv == nil {
		return os.Getenv
	}
	return m.Getenv
}

// warn says msg on stderr, once in a run.
func (m *Main) warn(msg string) {
	if _, said := m.warned.LoadOrStore(msg, true); !said {
		fmt.Fprintln(m.Stderr, "toolgrade: warning:", msg)
	}
}

// An output is a file a command writes: what is written is scrubbed of
// the run's secrets on its way to outfile's temporary file, which Commit
// puts in place whole and Abort drops.
type output struct {
	*outfile.File
	scrub   *secret.Writer
	secrets *secret.Set // the scrubber's
}

// output starts writing the file at path (to add to its end, appendTo),
// through the run's scrubber.
func (m *Main) output(path string, appendTo bool) (*output, error) {
	open := outfile.Create
	if appendTo {
		open = outfile.Append
	}
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	return &output{File: f, scrub: m.secrets.Writer(f), secrets: m.secrets}, nil
}

func (o *output) Write(p []byte) (int, error) { return o.scrub.Write(p) }

// writeAll writes content, then puts the file in place.
func (o *output) writeAll(content []byte) error {
	if _, err := o.Write(content); err != nil {
		return err
	}
	return o.Commit()
}

// Commit writes what the scrubber holds back, then puts the file in
// place.
func (o *output) Commit() error {
	if err := o.scrub.Flush(); err != nil {
		o.File.Abort()
		return fmt.Errorf("writing %s: %w", o.Name(), err)
	}
	return o.File.Commit()
}

// Abort drops the file; one written in place (a device) gets what the
// scrubber holds back first, as it got the rest.
func (o *output) Abort() {
	if o.InPlace() {
		o.scrub.Flush()
	}
	o.File.Abort()
}

// argHelp says, per command, what its arguments are, for a message when
// they are wrong.
var argHelp = map[string]string{
	"extract":  "give a trace file, or - for standard input",
	"snapshot": "give trace files or folders (- for standard input); with --check CASES, the traces to check",
	"compare":  "give two results files, the baseline then the new run",
	"init":     "give at most one file name for the config (default toolgrade.yaml)",
}

// explainArgs replaces the argument parser's wording ("accepts 1 arg(s),
// received 0") with what the command wants.
func explainArgs(cmd *cobra.Command) {
	check := cmd.Args
	if check == nil {
		return
	}
	cmd.Args = func(c *cobra.Command, args []string) error {
		err := check(c, args)
		if err == nil {
			return nil
		}
		var exit *ExitError
		if errors.As(err, &exit) {
			return err
		}
		help, ok := argHelp[c.Name()]
		switch {
		case ok:
		case len(args) > 0:
			help = fmt.Sprintf("takes no arguments, got %q", args[0])
		default:
			help = err.Error()
		}
		return usageError("%s: %s (usage: toolgrade %s)", c.Name(), help, c.Use)
	}
}

// checkFlags checks the flags given before a command runs: that the
// required ones are there, and that every number is in its range.
func checkFlags(cmd *cobra.Command, args []string) error {
	if err := requireFlags(cmd, args); err != nil {
		return err
	}
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if err == nil {
			if msg := outOfRange(f); msg != "" {
				err = usageError("%s: --%s: %s", cmd.Name(), f.Name, msg)
			}
		}
	})
	return err
}

// A bound is the range of a numeric flag, and what its ends mean.
type bound struct {
	min, max float64
	note     string
}

// anything is the bound of a flag that takes any number.
var anything = bound{math.Inf(-1), math.Inf(1), ""}

// flagBounds are the ranges of the numeric flags, by name, whatever the
// command. Every whole-number flag has one (TestFlagBounds checks); a
// fractional number must also be finite, and a duration above zero, every
// duration flag being a bound on time.
var flagBounds = map[string]bound{
	"workers":             {0, toolgrade.MaxWorkers, "0: one per CPU"},
	"concurrency":         {1, toolgrade.MaxWorkers, ""},
	"trials":              {1, math.Inf(1), ""},
	"max-steps":           {1, math.Inf(1), ""},
	"max-tokens":          {0, math.Inf(1), "0: no bound"},
	"max-retries":         {-1, math.Inf(1), "-1 or 0: none"},
	"batch-max-polls":     {1, math.Inf(1), ""},
	"tokens-per-minute":   {0, math.Inf(1), "0: no limit"},
	"requests-per-minute": {0, math.Inf(1), "0: no limit"},
	"temperature":         {0, math.Inf(1), ""},
	"judge-input-price":   {0, math.Inf(1), ""},
	"judge-output-price":  {0, math.Inf(1), ""},
	"tolerance":           {0, math.Inf(1), "how far a score may fall, such as 0.02"},
	"seed":                anything,
}

// outOfRange says what is wrong with a numeric flag's value, or "".
func outOfRange(f *pflag.Flag) string {
	text := f.Value.String()
	var v float64
	switch f.Value.Type() {
	case "int", "int64", "uint64":
		v, _ = strconv.ParseFloat(text, 64)
	case "float64":
		v, _ = strconv.ParseFloat(text, 64)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "want a finite number, got " + text
		}
	case "duration":
		if d, _ := time.ParseDuration(text); d <= 0 {
			return "want a duration above zero, such as 30s or 2m, got " + text
		}
		return ""
	default:
		return ""
	}
	b, ok := flagBounds[f.Name]
	if !ok || v >= b.min && v <= b.max {
		return ""
	}
	want := "a whole number"
	if f.Value.Type() == "float64" {
		want = "a number"
	}
	switch {
	case math.IsInf(b.max, 1):
		want += fmt.Sprintf(", %g or more", b.min)
	default:
		want += fmt.Sprintf(" from %g to %g", b.min, b.max)
	}
	if b.note != "" {
		want += " (" + b.note + ")"
	}
	return "want " + want + ", got " + text
}

// requireFlags explains a missing required flag. Cobra checks the flags
// marked required after PreRunE, and says what is missing only in text;
// checking them here first lets the message say what to give.
func requireFlags(cmd *cobra.Command, _ []string) error {
	var missing []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if req := f.Annotations[cobra.BashCompOneRequiredFlag]; len(req) > 0 && req[0] == "true" && !f.Changed {
			missing = append(missing, f.Name)
		}
	})
	if len(missing) == 0 {
		return nil
	}
	name := cmd.Name()
	return usageError("%s: give --%s (required flag(s) \"%s\" not set; toolgrade help %s lists every flag)",
		name, strings.Join(missing, " and --"), strings.Join(missing, `", "`), name)
}

// flagError explains an unknown or malformed flag, suggesting the nearest
// flag of the command.
func flagError(cmd *cobra.Command, err error) error {
	var unknown *pflag.NotExistError
	var invalid *pflag.InvalidValueError
	switch {
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		if want := flagKind(f); want != "" {
			// Not the parser's own words ("strconv.ParseInt: parsing ...").
			return usageError("%s: --%s: want %s, got %q", cmd.Name(), f.Name, want, invalid.GetValue())
		}
		return usageError("%s: --%s: %v", cmd.Name(), f.Name, errors.Unwrap(err))
	case !errors.As(err, &unknown):
		return usageError("%s: %v", cmd.Name(), err)
	case unknown.GetSpecifiedShortnames() != "":
		return usageError("%s: %v (toolgrade help %s lists the flags)", cmd.Name(), err, cmd.Name())
	}
	name := unknown.GetSpecifiedName()
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if near, ok := suggest.Nearest(name, names); ok {
		return usageError("%s: unknown flag --%s; did you mean --%s?", cmd.Name(), name, near)
	}
	if hint := optionAsFlag(name); hint != "" {
		return usageError("%s: unknown flag --%s; %s", cmd.Name(), name, hint)
	}
	return usageError("%s: unknown flag --%s (toolgrade help %s lists the flags)", cmd.Name(), name, cmd.Name())
}

// flagKind says what a flag of a standard type takes, for a message about
// a value it cannot read; "" for other flags.
func flagKind(f *pflag.Flag) string {
	switch f.Value.Type() {
	case "int", "int64":
		return "a whole number"
	case "uint64":
		return "a whole number, 0 or more"
	case "float64":
		return "a number"
	case "duration":
		return `a duration such as 30s, 2m or 1h30m (a number needs its unit)`
	case "bool":
		return "true or false"
	}
	return "" // a value of toolgrade's own, whose error says what it wants
}

// names lists an enumerated option's values for help text.
func names[S ~string](values []S) string {
	s := make([]string, len(values))
	for i, v := range values {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}

// optionAsFlag says how to set a profile option given as a flag
// (--evaluation-params), or "" if name is no profile option.
func optionAsFlag(name string) string {
	key := strings.ReplaceAll(name, "-", "_")
	if profiles := config.OptionProfiles(key); len(profiles) > 0 {
		return fmt.Sprintf("%s is an option of the %s profile: set it with --option %s=VALUE", key, strings.Join(profiles, ", "), key)
	}
	return ""
}
