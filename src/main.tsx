import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { listenForGoAnywhere } from './goAnywhere/goAnywhereShortcut.ts';
import { preloadHttpClient } from './http/http.ts';
import { createAppRouter } from './routing/createAppRouter.ts';
import { runSession } from './session/sessionTimers.ts';
import { followColourScheme } from './shell/colourScheme.ts';
import { watchFailedStylesheets } from './shell/stylesheetRetry.ts';
import { silenceConsole } from './shell/silenceConsole.ts';
import './styles/base.css';
import './styles/textField.css';

silenceConsole(import.meta.env.PROD);
runSession();
followColourScheme();
watchFailedStylesheets();
listenForGoAnywhere();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');

createRoot(root).render(
  <StrictMode>
    <App router={createAppRouter()} />
  </StrictMode>,
);
preloadHttpClient();
