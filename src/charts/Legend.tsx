/**
 * A chart legend: each entry's colour and dash (never colour alone), a band swatch behind spread
 * bands, a dot — or the series' symbol — for point-only series, and the symbol on the line of a line
 * with symbols. Drawn under line charts and histograms, and by panels that show one legend for
 * several charts.
 */
import { SYMBOL_AREA, symbolMark, type SymbolName } from './symbols';

export interface LegendItem {
  id: string;
  label: string;
  color: string;
  dash?: string;
  band?: boolean;
  points?: boolean;
  symbol?: SymbolName;
}

export function Legend({ items }: { items: LegendItem[] }) {
  return (
    <ul className="legend">
      {items.map((it) => (
        <li key={it.id}>
          <svg width={28} height={12} aria-hidden="true">
            {it.band && <rect x={0} y={2} width={28} height={8} fill={it.color} opacity={0.16} />}
            {!it.points && (
              <line x1={0} x2={28} y1={6} y2={6} stroke={it.color} strokeWidth={2} strokeDasharray={it.dash} />
            )}
            {it.symbol ? (
              <path
                data-symbol={it.symbol}
                {...symbolMark(it.symbol, 14, 6, it.color, it.points ? SYMBOL_AREA.key : SYMBOL_AREA.line)}
              />
            ) : (
              it.points && <circle cx={14} cy={6} r={3} fill={it.color} />
            )}
          </svg>
          {it.label}
        </li>
      ))}
    </ul>
  );
}
