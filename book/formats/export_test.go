package formats

// CountsMagic is countsMagic, for the test that holds it to build's.
const CountsMagic = countsMagic
