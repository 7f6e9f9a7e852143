// The drawn signature: a canvas that takes a finger, a pen or a mouse (pointer events), with a label
// and a button to clear it. Keyboard users sign by their typed name alone (decision 086).
import { Box, Button, Group, Text } from '@mantine/core';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';

const WIDTH = 600;
const HEIGHT = 220;

/** `onChange` gets the drawing as a PNG data URL, or '' once cleared. */
export function SignaturePad({ onChange, disabled }: { onChange: (dataUrl: string) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const drawn = useRef(false);

  const ctx = () => {
    const c = canvas.current?.getContext('2d');
    if (c) {
      c.lineWidth = 3;
      c.lineCap = 'round';
      c.lineJoin = 'round';
      c.strokeStyle = '#111111';
    }
    return c;
  };
  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - r.left) * WIDTH) / r.width, y: ((e.clientY - r.top) * HEIGHT) / r.height };
  };
  const clear = useCallback(() => {
    ctx()?.clearRect(0, 0, WIDTH, HEIGHT);
    drawn.current = false;
    onChange('');
  }, [onChange]);
  useEffect(() => () => void (drawing.current = false), []);

  return (
    <Box>
      <Text size="sm" fw={500} id="signature-pad-label">
        {t('signing.page.pad')}
      </Text>
      <Text size="xs" c="dimmed" id="signature-pad-help">
        {t('signing.page.padHelp')}
      </Text>
      <canvas
        ref={canvas}
        id="signature-pad"
        role="img"
        aria-labelledby="signature-pad-label"
        aria-describedby="signature-pad-help"
        width={WIDTH}
        height={HEIGHT}
        data-testid="signature-pad"
        style={{ width: '100%', maxWidth: WIDTH, aspectRatio: `${WIDTH} / ${HEIGHT}`, border: '1px solid var(--mantine-color-gray-6)', borderRadius: 6, background: 'white', touchAction: 'none', display: 'block' }}
        onPointerDown={(e) => {
          if (disabled) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          drawing.current = true;
          const p = point(e);
          const c = ctx();
          c?.beginPath();
          c?.moveTo(p.x, p.y);
        }}
        onPointerMove={(e) => {
          if (!drawing.current) return;
          const p = point(e);
          const c = ctx();
          c?.lineTo(p.x, p.y);
          c?.stroke();
          drawn.current = true;
        }}
        onPointerUp={() => {
          if (!drawing.current) return;
          drawing.current = false;
          if (drawn.current && canvas.current) onChange(canvas.current.toDataURL('image/png'));
        }}
        onPointerCancel={() => void (drawing.current = false)}
      />
      <Group mt={4}>
        <Button size="compact-sm" variant="default" onClick={clear} disabled={disabled} data-testid="signature-clear">
          {t('signing.page.clear')}
        </Button>
      </Group>
    </Box>
  );
}
