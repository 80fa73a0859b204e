// Package datadoc writes docs/datasets.md, the reference of crosslink's
// datasets, from the model registry and the dataset package's own Arrow
// schemas: the directory layout, every model's columns (name, Arrow type,
// unit, nullability, documentation and, for parameters, the spec key,
// default and range), its second tables, and the key-value metadata of
// every part file. Generated rather than written, it cannot drift from
// the code: a test in the crosslink command fails when the file is stale
// (go test -run TestDatasetsDoc -update rewrites it).
package datadoc
