package trace

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/toolgrade/toolgrade/jsonvalue"
)

// zipMagic starts every zip archive, and so Inspect AI's .eval logs.
var zipMagic = []byte("PK\x03\x04")

// Budgets of an .eval log's decompressed members, so that a corrupt or
// hostile archive (a zip bomb: a few megabytes for gigabytes) cannot
// exhaust memory: the members read make at most maxEvalTotal bytes in
// all, and a member larger than evalRatioFloor makes at most maxEvalRatio
// times its compressed size (deflate reaches about 1000 times on
// repeated bytes; JSON logs stay well under 100).
const (
	maxEvalTotal   = 1 << 30
	maxEvalRatio   = 100
	evalRatioFloor = 1 << 20
)

// inspectEvalLog reads an Inspect AI .eval log, the default log format
// since Inspect 0.3.46: a zip archive holding header.json (the eval spec,
// results and stats; _journal/start.json while a run is unfinished) and
// one samples/<id>_epoch_<n>.json per sample, each with its messages. It
// returns the JSON log's shape, {"eval", "samples"}, with the samples in
// archive order (the order Inspect wrote them), for readInspect. An
// archive that is not an .eval log, or one without samples, is an error.
func inspectEvalLog(data []byte) (any, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("%w: a zip archive that cannot be read: %v", ErrUnknownFormat, err)
	}
	var spec any = jsonvalue.Object{}
	var samples []any
	isLog := false
	left := int64(maxEvalTotal) // of the decompressed budget
	for _, f := range zr.File {
		name := f.Name
		switch {
		case name == "header.json" || name == "_journal/start.json":
			isLog = true
			v, err := zipJSON(f, &left)
			if err != nil {
				return nil, err
			}
			if e, ok := get(v, "eval").(jsonvalue.Object); ok {
				spec = e
			}
		case path.Dir(name) == "samples" && strings.HasSuffix(name, ".json"):
			v, err := zipJSON(f, &left)
			if err != nil {
				return nil, err
			}
			samples = append(samples, v)
		}
	}
	switch {
	case !isLog:
		return nil, fmt.Errorf("%w: a zip archive that is not an Inspect AI .eval log (no header.json or _journal/start.json)", ErrUnknownFormat)
	case len(samples) == 0:
		return nil, fmt.Errorf("%w: an Inspect AI .eval log without samples", ErrEmpty)
	}
	return jsonvalue.Object{{Key: "eval", Value: spec}, {Key: "samples", Value: samples}}, nil
}

// zipJSON reads one member of an archive as JSON, within what is left of
// the decompressed budget, which it takes its size from; errors name it.
func zipJSON(f *zip.File, left *int64) (any, error) {
	r, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	defer r.Close()
	limit := min(*left, max(evalRatioFloor, maxEvalRatio*int64(min(f.CompressedSize64, 1<<40))))
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	if int64(len(data)) > limit {
		if limit == *left {
			return nil, fmt.Errorf("%s: the log's members decompress to more than %d MiB in all, the most toolgrade reads of an .eval log", f.Name, maxEvalTotal>>20)
		}
		return nil, fmt.Errorf("%s: decompresses to more than %d times its %d compressed bytes, as a zip bomb does; toolgrade reads no more of an .eval log's member", f.Name, maxEvalRatio, f.CompressedSize64)
	}
	*left -= int64(len(data))
	v, err := jsonvalue.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	return v, nil
}
