import { describe, expect, it } from 'vitest';
import { parseConfig } from '~/core/config/env';
import { isTileTemplate, OSM_TILES } from './map-tiles';

describe('[map] tile URL templates', () => {
  it.each([
    [OSM_TILES.url, true],
    ['http://tiles.local:8080/{z}/{x}/{y}.png', true],
    ['https://{s}.tile.example.se/{z}/{x}/{y}{r}.png?key=abc', true],
    ['https://tiles.example.se/{z}/{x}.png', false],
    ['https://tiles.example.se/tile.png', false],
    ['ftp://tiles.example.se/{z}/{x}/{y}.png', false],
    ['javascript:alert(1)//{z}{x}{y}', false],
    ['tiles.example.se/{z}/{x}/{y}.png', false],
    ['', false],
  ])('%s → %s', (url, ok) => {
    expect(isTileTemplate(url)).toBe(ok);
  });

  it('are checked at boot for MAP_TILE_URL', () => {
    expect(parseConfig({ MAP_TILE_URL: 'https://t.example.se/{z}/{x}/{y}.png' }).MAP_TILE_URL).toBe(
      'https://t.example.se/{z}/{x}/{y}.png',
    );
    expect(() => parseConfig({ MAP_TILE_URL: 'https://t.example.se/tile.png' })).toThrow(/MAP_TILE_URL/);
  });
});
