import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '../../test/render';
import { DealSnippet } from './deal-snippet';

afterEach(cleanup);

describe('DealSnippet', () => {
  it('marks the matched words and leaves the rest as text', async () => {
    const { container } = await render(
      <DealSnippet
        parts={[
          { text: 'Roasted ', match: false },
          { text: 'coffee', match: true },
          { text: ' beans from ', match: false },
          { text: 'Peru', match: true },
        ]}
      />,
    );
    expect(container.textContent).toBe('Roasted coffee beans from Peru');
    expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual([
      'coffee',
      'Peru',
    ]);
  });

  it('shows markup in a description as text, never as HTML', async () => {
    const { container } = await render(
      <DealSnippet
        parts={[
          { text: 'Pay now <script>alert("x")</script> ', match: false },
          { text: '<b>cheap</b>', match: true },
          { text: ' <img src=x onerror=alert(1)>', match: false },
        ]}
      />,
    );
    expect(container.textContent).toBe(
      'Pay now <script>alert("x")</script> <b>cheap</b> <img src=x onerror=alert(1)>',
    );
    expect(container.querySelector('script, b, img')).toBeNull();
    expect(container.querySelector('mark')?.textContent).toBe('<b>cheap</b>');
    expect(container.querySelector('mark')?.children).toHaveLength(0);
  });
});
