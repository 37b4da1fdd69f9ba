package report

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/jedib0t/go-pretty/v6/progress"
	"github.com/toolgrade/toolgrade"
)

// ShowProgress decides whether a progress bar belongs on w: only when w is
// a terminal (a character device) and TERM is not "dumb". Output to a
// file, a pipe or a CI log gets none. getenv may be nil.
func ShowProgress(w io.Writer, getenv func(string) string) bool {
	f, ok := w.(interface{ Stat() (os.FileInfo, error) })
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	return getenv == nil || getenv("TERM") != "dumb"
}

// Progress is a Writer that draws a progress bar: cases done, the rate,
// the ETA when the total is known, and the failures so far. It redraws a
// few times a second on its own goroutine until Finish.
type Progress struct {
	pw      progress.Writer
	tracker *progress.Tracker
	failed  int
	done    chan struct{}
}

// NewProgress starts drawing on w. total is the number of cases expected,
// or 0 when unknown (no percentage or ETA until [Progress.SetTotal]).
func NewProgress(w io.Writer, total int64) *Progress {
	pw := progress.NewWriter()
	pw.SetOutputWriter(w)
	pw.SetUpdateFrequency(200 * time.Millisecond)
	pw.SetAutoStop(true) // ends Render once the tracker is done, however early
	pw.SetTrackerLength(30)
	pw.SetTrackerPosition(progress.PositionRight)
	pw.SetMessageLength(22)
	pw.SetStyle(progress.StyleDefault)
	st := pw.Style()
	st.Visibility.ETA = true
	st.Visibility.Speed = true
	st.Visibility.Time = true
	st.Options.Separator = " "
	st.Options.SpeedSuffix = "/s"
	st.Options.SpeedPrecision = time.Second
	st.Options.TimeInProgressPrecision = time.Second
	st.Options.TimeDonePrecision = 100 * time.Millisecond
	t := &progress.Tracker{
		Message:          progressMessage(0),
		Total:            total,
		Units:            progress.Units{Formatter: func(v int64) string { return fmt.Sprint(v) }, Notation: " cases", NotationPosition: progress.UnitsNotationPositionAfter},
		AutoStopDisabled: true, // a total counted ahead may be off; Finish ends it
	}
	pw.AppendTracker(t)
	p := &Progress{pw: pw, tracker: t, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		pw.Render()
	}()
	return p
}

func progressMessage(failed int) string {
	if failed == 0 {
		return "grading"
	}
	return fmt.Sprintf("grading, %d failed", failed)
}

// SetTotal sets the number of cases expected. It is safe to call from any
// goroutine, so a count can finish while the run goes on.
func (p *Progress) SetTotal(n int64) { p.tracker.UpdateTotal(n) }

// Add counts one result.
func (p *Progress) Add(r *toolgrade.Result) error {
	if !r.Success {
		p.failed++
		p.tracker.UpdateMessage(progressMessage(p.failed))
	}
	p.tracker.Increment(1)
	return nil
}

// Finish draws the final state and stops drawing.
func (p *Progress) Finish(*Stats) error {
	p.tracker.MarkAsDone()
	<-p.done
	return nil
}
