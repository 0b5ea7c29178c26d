import type { Metadata } from 'next';
import './globals.css';

export const metadata: Metadata = {
  title: 'Keyout — video background removal',
  description: 'Remove the background from videos, on our servers or privately in your browser.',
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-white text-slate-900 antialiased">{children}</body>
    </html>
  );
}
