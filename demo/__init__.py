"""Demo and synthetic data for trying the site, the benchmarks and the tests: no production
package imports it."""
