package sweep

import (
	"sync"

	"github.com/crosslink-sim/crosslink/vocab"
)

// sharedResults holds, for the jobs of one RunJobs call, the results of
// the scenarios that more than one of them holds: the same model (one
// schema), the same parameters and replicate (one scenario id) and the
// same seed. A scenario is a function of its parameters and seed, so the
// first job to run such a scenario computes it and the others take its
// result instead of computing it again (in a full-profile run,
// sp-flowsize's default flow-size mix is sp-fig1's, and rc13-fig6 holds
// 152 of rc13-fig5's scenarios). A job that reaches a shared scenario
// before its result is there computes it too, which gives the same
// result; nobody waits.
//
// A result is kept until every job that holds its scenario has taken or
// computed it; a job whose dataset already holds the row never asks, and
// the result then lives until RunJobs returns.
type sharedResults struct {
	mu sync.Mutex
	// holders counts, per shared scenario, the jobs that have not yet
	// taken or computed it.
	holders map[sharedKey]int
	results map[sharedKey]vocab.Result
	taken   int // results taken rather than computed
}

// sharedKey names a scenario across jobs: the model's schema (its name and
// version), the scenario id (its parameters and replicate) and its seed.
type sharedKey struct {
	schema *vocab.Schema
	id     string
	seed   uint64
}

// newSharedResults returns the results shared by jobs, or nil when no
// scenario belongs to more than one job. Only jobs whose model another
// job also runs are expanded. Adaptive jobs, whose scenarios are known
// only round by round, share nothing.
func newSharedResults(jobs []*Job, configs []Config) *sharedResults {
	bySchema := map[*vocab.Schema]int{}
	for _, j := range jobs {
		if j.Spec.Adaptive == nil {
			bySchema[j.Model.Schema()]++
		}
	}
	count := map[sharedKey]int{}
	for i, j := range jobs {
		s := j.Model.Schema()
		if j.Spec.Adaptive != nil || bySchema[s] < 2 {
			continue
		}
		src := configs[i].Source
		for k := range src.Len() {
			sc := src.At(k)
			count[sharedKey{s, sc.ID, sc.Seed}]++
		}
	}
	for k, n := range count {
		if n < 2 {
			delete(count, k)
		}
	}
	if len(count) == 0 {
		return nil
	}
	return &sharedResults{holders: count, results: map[sharedKey]vocab.Result{}}
}

// take returns the result of a shared scenario that another job has
// computed; ok is false when there is none (yet, or it is not shared).
func (sh *sharedResults) take(k sharedKey) (res vocab.Result, ok bool) {
	if sh == nil {
		return res, false
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	res, ok = sh.results[k]
	if ok {
		sh.taken++
		sh.release(k)
	}
	return res, ok
}

// computed records that a job has computed scenario k; an ok result is
// kept for the jobs that have yet to take it.
func (sh *sharedResults) computed(k sharedKey, res vocab.Result, ok bool) {
	if sh == nil {
		return
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if _, shared := sh.holders[k]; !shared {
		return
	}
	if ok {
		sh.results[k] = res
	}
	sh.release(k)
}

// release counts one holder of k served and forgets k after the last.
func (sh *sharedResults) release(k sharedKey) {
	sh.holders[k]--
	if sh.holders[k] <= 0 {
		delete(sh.holders, k)
		delete(sh.results, k)
	}
}

// Taken returns how many scenarios took another job's result.
func (sh *sharedResults) Taken() int {
	if sh == nil {
		return 0
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.taken
}
