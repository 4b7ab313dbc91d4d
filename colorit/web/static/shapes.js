// Shapes for colour-blind labels: SVG path data in a 100 x 100 box, drawn by the canvas
// (Path2D, board_view.js) and the palette buttons (inline SVG) alike, so no font needs the
// glyphs.

function polygon(points) {
  return "M" + points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" L") + " Z";
}

function regular(n, radius, turn = -Math.PI / 2, inner = 0) {
  const points = [];
  const count = inner ? n * 2 : n;
  for (let i = 0; i < count; i++) {
    const r = inner && i % 2 ? inner : radius;
    const a = turn + (i * 2 * Math.PI) / count;
    points.push([50 + r * Math.cos(a), 50 + r * Math.sin(a)]);
  }
  return polygon(points);
}

export const SHAPES = {
  circle: { d: "M20,50 a30,30 0 1,0 60,0 a30,30 0 1,0 -60,0 Z" },
  triangle: { d: polygon([[50, 16], [84, 78], [16, 78]]) },
  square: { d: "M22,22 H78 V78 H22 Z" },
  diamond: { d: polygon([[50, 14], [86, 50], [50, 86], [14, 50]]) },
  cross: { d: "M24,24 L76,76 M76,24 L24,76", stroke: 14 },
  plus: { d: "M50,18 V82 M18,50 H82", stroke: 14 },
  star: { d: regular(5, 38, -Math.PI / 2, 16) },
  ring: { d: "M24,50 a26,26 0 1,0 52,0 a26,26 0 1,0 -52,0 Z", stroke: 11 },
  bar: { d: "M14,38 H86 V62 H14 Z" },
  column: { d: "M38,14 H62 V86 H38 Z" },
  dot: { d: "M36,50 a14,14 0 1,0 28,0 a14,14 0 1,0 -28,0 Z" },
  hexagon: { d: regular(6, 36, 0) },
};

const SVG = "http://www.w3.org/2000/svg";

/** The inline SVG of shape `name` in colour `ink`, for a palette button. */
export function shapeSvg(name, ink) {
  const shape = SHAPES[name] || SHAPES.dot;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("width", "16");
  svg.setAttribute("height", "16");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", shape.d);
  if (shape.stroke) {
    path.setAttribute("fill", "none");
    path.setAttribute("stroke", ink);
    path.setAttribute("stroke-width", String(shape.stroke));
    path.setAttribute("stroke-linecap", "round");
  } else {
    path.setAttribute("fill", ink);
  }
  svg.append(path);
  return svg;
}
