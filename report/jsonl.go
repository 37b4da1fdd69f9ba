package report

import (
	"bufio"
	"io"

	"github.com/toolgrade/toolgrade"
)

// JSONL returns a Writer of the result contract: one line of JSON per
// result, in input order (see [toolgrade.Result.AppendJSON]). Lines are
// buffered; Finish flushes them.
func JSONL(w io.Writer) Writer { return &jsonlReport{w: bufio.NewWriterSize(w, 64<<10)} }

type jsonlReport struct {
	w    *bufio.Writer
	line []byte
}

func (j *jsonlReport) Add(r *toolgrade.Result) error {
	j.line = append(r.AppendJSON(j.line[:0]), '\n')
	_, err := j.w.Write(j.line)
	return err
}

func (j *jsonlReport) Finish(*Stats) error { return j.w.Flush() }
