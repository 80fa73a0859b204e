package sweep

import (
	"fmt"
	"slices"
	"strings"

	"github.com/crosslink-sim/crosslink/sweep/dataset"
	"github.com/crosslink-sim/crosslink/vocab"
)

// MaxPartitions is the most hive partitions (directories) a dataset may be
// split into: partitioning is for a few categorical parameters, and
// thousands of directories of small files slow every reader down.
const MaxPartitions = 1000

// Partitioning returns the partition keys (parameter names) and the number
// of partitions for running job j with --partition-by by (parameter or
// column names, outermost first). An empty by keeps the partitioning the
// dataset already has, so that a resumed run needs no flag; a by that
// differs from the dataset's is an error, as is partitioning a dataset
// that has unpartitioned parts, since either would mix two layouts in one
// directory.
func Partitioning(j *Job, by []string) ([]string, int, error) {
	s := j.Plan.Schema()
	onDisk, err := dataset.PartitionKeys(j.Dir)
	if err != nil {
		return nil, 0, err
	}
	if len(by) == 0 {
		for _, col := range onDisk {
			i := columnParam(s, col)
			if i < 0 {
				return nil, 0, fmt.Errorf("sweep: %s is partitioned by %s, which is not a parameter of %s", j.Dir, col, s.Name)
			}
			by = append(by, s.Params[i].Name)
		}
		if len(by) == 0 {
			return nil, 0, nil
		}
	}
	var names, cols, keys []string
	for _, p := range s.Params {
		names = append(names, p.Name)
	}
	count := 1
	for _, b := range by {
		i := s.ParamIndex(b)
		if i < 0 {
			i = columnParam(s, b)
		}
		if i < 0 {
			return nil, 0, fmt.Errorf("sweep: --partition-by %s: not a parameter of %s%s", b, s.Name, Suggest(b, names))
		}
		p := s.Params[i]
		if p.Kind == vocab.Float {
			return nil, 0, fmt.Errorf("sweep: --partition-by %s: a float parameter cannot name directories (its values are not few and exact); partition by string, int or bool parameters", p.Name)
		}
		n := j.Plan.Distinct(i)
		if n > MaxPartitions {
			return nil, 0, fmt.Errorf("sweep: --partition-by %s: %d distinct values in %s, more than %d partitions; partition by parameters with few values", p.Name, n, j.Spec.Name, MaxPartitions)
		}
		count *= n
		if count > MaxPartitions {
			return nil, 0, fmt.Errorf("sweep: --partition-by %s: %d or more partitions, more than %d; partition by fewer parameters", strings.Join(by, ","), count, MaxPartitions)
		}
		if slices.Contains(keys, p.Name) {
			return nil, 0, fmt.Errorf("sweep: --partition-by names %s twice", p.Name)
		}
		cols = append(cols, p.Column())
		keys = append(keys, p.Name)
	}
	if len(onDisk) > 0 && strings.Join(onDisk, ",") != strings.Join(cols, ",") {
		return nil, 0, fmt.Errorf("sweep: %s is partitioned by %s, not %s; run with --partition-by %s, or write to another --out", j.Dir, strings.Join(onDisk, ","), strings.Join(cols, ","), strings.Join(paramNames(s, onDisk), ","))
	}
	if len(onDisk) == 0 {
		top, err := dataset.Parts(j.Dir)
		if err != nil {
			return nil, 0, err
		}
		if len(top) > 0 {
			return nil, 0, fmt.Errorf("sweep: %s holds %d unpartitioned parts; --partition-by would mix two layouts in one dataset: run without it, or write to another --out", j.Dir, len(top))
		}
	}
	return keys, count, nil
}

// columnParam returns the index of the parameter whose column is col, or -1.
func columnParam(s *vocab.Schema, col string) int {
	for i, p := range s.Params {
		if p.Column() == col {
			return i
		}
	}
	return -1
}

func paramNames(s *vocab.Schema, cols []string) []string {
	out := make([]string, len(cols))
	for k, c := range cols {
		out[k] = c
		if i := columnParam(s, c); i >= 0 {
			out[k] = s.Params[i].Name
		}
	}
	return out
}
