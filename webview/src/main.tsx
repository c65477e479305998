import { createRoot } from 'react-dom/client';

// The explorer panel's React app. The live tree, inspector and curation views arrive with the explorer webview.
function App() {
  return <main><h1>TOFFEE</h1><p>No run is open.</p></main>;
}

const rootElement = document.getElementById('root');
if (rootElement) createRoot(rootElement).render(<App />);
