package sweep

// Counts returns how many scenarios of the job fall to shard and how many
// of those its dataset does not hold yet: what run --dry-run prints. An
// adaptive job is sharded by points (see Adaptive), so its counts are the
// whole plan's once the shard is known to fit the points. A shard that
// does not fit the plan is an ErrOptions.
func (j *Job) Counts(shard Shard) (n, missing int, err error) {
	n = j.Plan.Len()
	switch {
	case shard == Whole:
		missing, err = j.Missing()
		return n, missing, err
	case j.Spec.Adaptive != nil:
		if err := shard.fits(j.Plan.Points(), "points"); err != nil {
			return 0, 0, optionsError{err}
		}
		missing, err = j.Missing()
		return n, missing, err
	}
	if err := shard.Fits(n); err != nil {
		return 0, 0, optionsError{err}
	}
	return j.ShardCounts(shard)
}
