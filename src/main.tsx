import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { preloadHttpClient } from './http/http.ts';
import { createAppRouter } from './routing/createAppRouter.ts';
import { PageStatus } from './routing/PageStatus.tsx';
import { runSession } from './session/sessionTimers.ts';
import { silenceConsole } from './shell/silenceConsole.ts';
import './styles/base.css';

silenceConsole(import.meta.env.PROD);
runSession();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');

const router = createAppRouter();
const reactRoot = createRoot(root);
// The first screen renders once its route chunks are there, whole: suspended content would be revealed at React's
// throttled pace, hundreds of milliseconds after the chunks arrived.
reactRoot.render(<PageStatus />);
void router.firstChunks.then(() =>
  reactRoot.render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  ),
);
preloadHttpClient();
