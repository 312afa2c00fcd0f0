import { SYMBOL_AREA, symbolMark, type SymbolName } from './symbols';

/** A series' symbol as an inline swatch (a table row's or a read-out's key), in place of a colour dot. */
export function SymbolSwatch({ symbol, color }: { symbol: SymbolName; color: string }) {
  return (
    <svg className="swatch-symbol" width={12} height={12} aria-hidden="true">
      <path data-symbol={symbol} {...symbolMark(symbol, 6, 6, color, SYMBOL_AREA.key)} />
    </svg>
  );
}
