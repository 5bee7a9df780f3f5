//! Charts drawn with plotters, generic over its `DrawingBackend`: the browser draws them on a
//! canvas (plotters-canvas), tests and the CLI render the same functions to SVG.
