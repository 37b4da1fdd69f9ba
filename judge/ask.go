package judge

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
)

// defaultConcurrency is how many prompts of a case are asked at once of a
// judge that does not say how many it answers at once.
const defaultConcurrency = 8

// concurrency returns how many prompts of a case to ask j at once.
func concurrency(j Judge) int {
	if c, ok := j.(interface{ Concurrency() int }); ok {
		return max(c.Concurrency(), 1)
	}
	return defaultConcurrency
}

// askAll asks j the prompts request(0), ..., request(n-1), at most
// concurrency(j) at once, starting them in that order, and returns their
// verdicts in that order, whatever order the replies come in.
//
// It stops at the first failure in that order, as asking one prompt after
// another would: failed is its index (-1 when every prompt was answered)
// and err its error; verdicts[:failed+1] hold what the prompts up to it
// returned, the usage the failed one spent included. Prompts after it are
// not asked, and those being asked are cancelled. A prompt is built only
// when it is asked, so that at most that many are held at once.
func askAll(ctx context.Context, j Judge, n int, request func(i int) Request) (verdicts []Verdict, failed int, err error) {
	verdicts = make([]Verdict, n)
	width := min(concurrency(j), n)
	if width <= 1 {
		for i := range n {
			v, err := j.Judge(ctx, request(i))
			verdicts[i] = v
			if err != nil {
				return verdicts, i, err
			}
		}
		return verdicts, -1, nil
	}
	var (
		mu       sync.Mutex
		next     int                             // the next prompt to ask
		first    = n                             // the first failure so far
		errs     = make([]error, n)              // the prompts' errors
		cancels  = make([]context.CancelFunc, n) // of the prompts being asked
		panicked any                             // a panic while asking, with its stack
		wg       sync.WaitGroup
	)
	// fail records prompt i's failure and cancels the prompts being asked
	// after it; mu is held.
	fail := func(i int) {
		if i >= first {
			return
		}
		first = i
		for k := i + 1; k < next; k++ {
			if cancels[k] != nil {
				cancels[k]()
			}
		}
	}
	// ask asks prompt i within actx, which cancel cancels.
	ask := func(actx context.Context, cancel context.CancelFunc, i int) {
		defer cancel()
		defer func() {
			p := recover()
			mu.Lock()
			defer mu.Unlock()
			cancels[i] = nil
			if p != nil {
				// Panicking here would end the program: the caller
				// panics with it instead, when every prompt has returned.
				if panicked == nil {
					panicked = fmt.Sprintf("%v\n\nasking the judge:\n%s", p, debug.Stack())
				}
				fail(i)
			} else if errs[i] != nil {
				fail(i)
			}
		}()
		verdicts[i], errs[i] = j.Judge(actx, request(i))
	}
	for range width {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				if i >= n || i > first {
					mu.Unlock()
					return
				}
				next++
				actx, cancel := context.WithCancel(ctx)
				cancels[i] = cancel
				mu.Unlock()
				ask(actx, cancel, i)
			}
		})
	}
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
	if first < n {
		return verdicts, first, errs[first]
	}
	return verdicts, -1, nil
}
